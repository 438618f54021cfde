"""skirmish"""
