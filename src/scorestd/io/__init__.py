"""Readers and writers of score cubes, and the adapters of the evaluation toolkits.

Each reader returns a validated cube; each writer takes a cube (or 2-D array) and checks
its output path before writing.
"""

from .formats import FORMATS, OUTPUT_SUFFIXES, detect_format, load, output_format, save
from .groups import read_groups
from .matrix_csv import read_matrix_csv, write_matrix_csv
from .netcdf import content_digest, read_netcdf, write_netcdf
from .paths import check_writable
from .tidy import (
    from_dataframe,
    read_long_csv,
    read_parquet,
    to_dataframe,
    write_long_csv,
    write_parquet,
)
from .toolkits import evaluate, from_ir_measures, from_ranx
from .trec_eval import read_trec_eval

__all__ = [
    "FORMATS",
    "OUTPUT_SUFFIXES",
    "check_writable",
    "content_digest",
    "detect_format",
    "evaluate",
    "from_dataframe",
    "from_ir_measures",
    "from_ranx",
    "load",
    "output_format",
    "read_groups",
    "read_long_csv",
    "read_matrix_csv",
    "read_netcdf",
    "read_parquet",
    "read_trec_eval",
    "save",
    "to_dataframe",
    "write_long_csv",
    "write_matrix_csv",
    "write_netcdf",
    "write_parquet",
]
