import os
import sys

# the naive reference implementations live next to the tests that use them
sys.path.insert(0, os.path.dirname(__file__))
