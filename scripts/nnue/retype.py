"""Carry a net's input weights into a game with other piece types: the transfer of a
trained net (chess's, say) to a family that adds or reorders types (the chancellor games
are chess's six types with a chancellor before the king).

A type map has one entry per piece type of the new game: the type of the old net whose
input rows that type starts from. Chess into the chancellor family is `0,1,2,3,4,4,5`:
pawn to queen keep their rows, the chancellor (type 5) starts as a queen, and the king
(type 6) keeps the king's rows. Hand inputs follow their type in the same way.
"""

import numpy as np


class TypeMapError(ValueError):
    """A type map that does not fit the two nets."""


def parse_type_map(text, new_types, old_types):
    """The entries of `text` (comma-separated type numbers), checked: one per new type,
    each a type of the old net."""
    try:
        entries = [int(x) for x in text.split(",")]
    except ValueError:
        raise TypeMapError(f"--init-types {text!r}: not comma-separated type numbers")
    if len(entries) != new_types:
        raise TypeMapError(f"--init-types has {len(entries)} entries; this run has "
                           f"T = {new_types} types")
    bad = [t for t in entries if not 0 <= t < old_types]
    if bad:
        raise TypeMapError(f"--init-types names type {bad[0]}; the init net has types "
                           f"0 to {old_types - 1}")
    return entries


def mapped_royal(type_map, old_royal, new_royal):
    """Checks that the new royal type starts from the old net's royal type, so that the
    king buckets keep their meaning."""
    if type_map[new_royal] != old_royal:
        raise TypeMapError(f"the royal type {new_royal} starts from type "
                           f"{type_map[new_royal]}, not the init net's royal type {old_royal}")


def retype_rows(W1, type_map, old_types, squares, hand):
    """W1 of the old net (KB copies of its F_old input rows, in the order of docs/nnue.md:
    board inputs (r*T + t)*N + s, then hand inputs 2*T*N + (r*T + t)*K + k) with its rows
    arranged for the new types: row (r, t, ...) of the result is row (r, type_map[t], ...)
    of the input, in every king bucket."""
    old_f = 2 * old_types * (squares + hand)
    buckets = W1.shape[0] // old_f
    index = []
    for r in range(2):
        for t in type_map:
            first = (r * old_types + t) * squares
            index.extend(range(first, first + squares))
    for r in range(2):
        for t in type_map:
            first = 2 * old_types * squares + (r * old_types + t) * hand
            index.extend(range(first, first + hand))
    per_bucket = W1.reshape(buckets, old_f, -1)[:, index, :]
    return np.ascontiguousarray(per_bucket.reshape(buckets * len(index), -1))
