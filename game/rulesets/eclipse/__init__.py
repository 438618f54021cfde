"""eclipse"""
