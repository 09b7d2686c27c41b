"""Grids and region graphs: which cells exist, who neighbours whom, how far, which way.

Cells are always small integers (0..len-1) inside the engine; coordinates and labels
are views for people and order files.
"""

from engine.topology.base import Topology, topology_from_dict
from engine.topology.hex import HexGrid
from engine.topology.regions import RegionGraph
from engine.topology.square import SquareGrid

__all__ = ["Topology", "HexGrid", "SquareGrid", "RegionGraph", "topology_from_dict"]
