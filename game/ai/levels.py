"""Difficulty levels: how well the tactical player thinks. Never its stats, dice or sight."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    name: str
    noise: float          # spread of the random error added to every option's score (HP)
    lookahead: int        # 0: this command's gain only; 1: + the reply of enemies in sight;
                          # 2: + remembered enemies and overwatch cones; 3: + the enemies not
                          # seen yet (cover against them, ground it cannot see, and, planning
                          # a round, fire on sight at them), next turn's shots and moving to
                          # cover after shooting
    squares: int          # at most this many destinations are weighed (0: all it can reach)
    tactics: bool         # weighs suppression, grenades and overwatch by their exact odds
    called_shots: bool    # considers aiming at the head, arms and legs, not just the torso
    tabletop_noise: float  # the noise under the tabletop rulesets, whose player scores in shares
                           # of a target's health (s.d.; measured: see docs/AI.md)
    objectives: bool = True  # weighs what objectives name beyond the zone to get to or guard:
                             # the enemy to put down first, its own unit to keep out of harm,
                             # the side that wins by lasting


EASY = Level("easy", noise=16.0, lookahead=0, squares=8, tactics=False, called_shots=False,
             tabletop_noise=1.2, objectives=False)
NORMAL = Level("normal", noise=1.0, lookahead=2, squares=48, tactics=True, called_shots=True,
               tabletop_noise=0.05, objectives=False)
HARD = Level("hard", noise=0.0, lookahead=3, squares=0, tactics=True, called_shots=True,
             tabletop_noise=0.0)

LEVELS = {level.name: level for level in (EASY, NORMAL, HARD)}
