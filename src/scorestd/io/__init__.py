"""Readers and writers of score cubes.

Each reader returns a validated cube; each writer takes a cube (or 2-D array).
"""

from .formats import FORMATS, detect_format, load, save
from .groups import read_groups
from .matrix_csv import read_matrix_csv, write_matrix_csv
from .netcdf import read_netcdf, write_netcdf
from .tidy import from_dataframe, read_long_csv, to_dataframe, write_long_csv
from .trec_eval import read_trec_eval

__all__ = [
    "FORMATS",
    "detect_format",
    "from_dataframe",
    "load",
    "read_groups",
    "read_long_csv",
    "read_matrix_csv",
    "read_netcdf",
    "read_trec_eval",
    "save",
    "to_dataframe",
    "write_long_csv",
    "write_matrix_csv",
    "write_netcdf",
]
