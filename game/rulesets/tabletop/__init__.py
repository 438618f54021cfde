"""tabletop"""
