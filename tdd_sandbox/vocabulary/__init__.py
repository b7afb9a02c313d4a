"""What every layer shares, at the bottom floor: roles, cancellation, gate and test results,
failure kinds, policy violations, acceptance cases and the tool's own file names.

Nothing here imports from another folder of the package but `errors`.
"""
