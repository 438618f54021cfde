"""opend6"""
