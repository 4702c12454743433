"""Numpy kernels: batch-first array functions with ``axis=`` arguments.

Nothing here imports xarray; the labelled layer wraps these with ``xr.apply_ufunc``.
"""
