"""PLACEHOLDER: being written now; replaced before commit."""
SEATS = (3, 4)
DEFAULT_SEATS = 4
