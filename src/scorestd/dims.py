"""Names of the dimensions of a score cube.

Every function refers to dimensions by these names, never by axis position.
"""

TOPIC = "topic"
SYSTEM = "system"
MEASURE = "measure"

#: Canonical order of the dimensions of a score cube.
CUBE_DIMS = (TOPIC, SYSTEM, MEASURE)

#: Name given to the measure of a 2-D ``(topic, system)`` array that has none.
DEFAULT_MEASURE = "score"

#: Name of the ``xarray.DataArray`` holding a cube.
CUBE_NAME = "score"
