"""The planner: accuracy and sample size before a release, pure against approximate DP.

Everything here reads public facts only (the spec, the public row count, public or synthetic data).
"""
