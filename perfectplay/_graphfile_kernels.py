"""numba kernels of the plain game-graph text format (:mod:`perfectplay.graphfile`): the
parser's passes over the bytes and the writers of the text and JSON outputs.

The parser reports where it stopped in a small ``info`` array (a status code, the line, the
byte offset, the move index or position, the offending number) that
:mod:`perfectplay.graphfile` turns into its error messages.
"""

from __future__ import annotations

import numba as nb
import numpy as np
from numpy.typing import NDArray

from perfectplay._tokens import INT_BAD, INT_TOO_BIG, read_int
from perfectplay.values import DRAW, NO_REMOTENESS, UNDECIDED, Value

# ---------------------------------------------------------------------------- statuses
OK = 0
EMPTY = 1  # no header at all
BAD_INT = 2  # a token that should be an integer is not one
TOO_BIG = 3  # more than 18 digits
EXTRA = 4  # something after the last expected token of a line
EOL = 5  # the line ends before its second token
NEGATIVE = 6  # n or m below zero
EOF_MOVES = 7  # fewer than m move lines
RANGE = 8  # a position id outside 0..n-1
BAD_WORD = 9  # a value word that is not WIN, LOSE or TIE
DRAW_WORD = 10  # DRAW given as a primitive value
DUPLICATE = 11  # a second primitive value for the same position

# Slots of the kernels' `info` output array.
STATUS, LINE, OFFSET, INDEX, VALUE = 0, 1, 2, 3, 4


def _word_table() -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """The value names as a byte table indexed by value (row v spells Value(v).name)."""
    values = (Value.LOSE, Value.DRAW, Value.TIE, Value.WIN)
    words = np.zeros((len(values), 4), dtype=np.uint8)
    lengths = np.zeros(len(values), dtype=np.int64)
    for v in values:
        words[v, : len(v.name)] = np.frombuffer(v.name.encode(), dtype=np.uint8)
        lengths[v] = len(v.name)
    return words, lengths


WORDS, WORD_LENGTHS = _word_table()


@nb.njit(cache=True)
def is_blank(c):  # type: ignore[no-untyped-def]
    # space, \t, \v, \f, \r: whitespace that does not end a line
    return c == 32 or c == 9 or c == 11 or c == 12 or c == 13


@nb.njit(cache=True)
def ends_token(c):  # type: ignore[no-untyped-def]
    return c == 10 or c == 35 or is_blank(c)


@nb.njit(cache=True)
def skip_to_token(buf, pos, line):  # type: ignore[no-untyped-def]
    """Skip whitespace, comments and blank lines: (pos, line) of the next token, or EOF."""
    n = buf.shape[0]
    while pos < n:
        c = buf[pos]
        if c == 10:
            line += 1
            pos += 1
        elif c == 35:  # '#': skip to the end of the line (the newline is counted above)
            while pos < n and buf[pos] != 10:
                pos += 1
        elif is_blank(c):
            pos += 1
        else:
            break
    return pos, line


@nb.njit(cache=True)
def skip_inline(buf, pos):  # type: ignore[no-untyped-def]
    """Skip blanks and a comment on the current line: the next token of this line, or its end."""
    n = buf.shape[0]
    while pos < n and is_blank(buf[pos]):
        pos += 1
    if pos < n and buf[pos] == 35:
        while pos < n and buf[pos] != 10:
            pos += 1
    return pos


@nb.njit(cache=True)
def at_line_end(buf, pos):  # type: ignore[no-untyped-def]
    return pos >= buf.shape[0] or buf[pos] == 10


@nb.njit(cache=True)
def read_number(buf, pos):  # type: ignore[no-untyped-def]
    """(status, value, end) of the integer token at `pos` (ended by a blank, newline or '#')."""
    status, value, end = read_int(buf, pos)
    if status == INT_TOO_BIG:
        return TOO_BIG, 0, end
    if status == INT_BAD or (end < buf.shape[0] and not ends_token(buf[end])):
        return BAD_INT, 0, end
    return OK, value, end


@nb.njit(cache=True)
def read_value_word(buf, pos, words, lengths):  # type: ignore[no-untyped-def]
    """(value, end) of the word at `pos`: the row of `words` it spells in any letter case,
    or UNDECIDED if none."""
    n = buf.shape[0]
    end = pos
    while end < n and not ends_token(buf[end]):
        end += 1
    for v in range(words.shape[0]):
        if lengths[v] != end - pos:
            continue
        same = True
        for i in range(lengths[v]):
            c = buf[pos + i]
            if 97 <= c <= 122:  # lower case -> upper case
                c -= 32
            if c != words[v, i]:
                same = False
                break
        if same:
            return v, end
    return UNDECIDED, end


@nb.njit(cache=True)
def parse_header(buf, info):  # type: ignore[no-untyped-def]
    """Read ``n m``; fill `info`; return (n, m, position after the header line, its line)."""
    pos, line = skip_to_token(buf, 0, 1)
    info[LINE] = line
    info[OFFSET] = pos
    if pos >= buf.shape[0]:
        info[STATUS] = EMPTY
        return 0, 0, pos, line
    status, n, end = read_number(buf, pos)
    if status != OK:
        info[STATUS] = status
        return 0, 0, pos, line
    info[INDEX] = 0
    if n < 0:
        info[STATUS] = NEGATIVE
        info[VALUE] = n
        return 0, 0, pos, line
    pos = skip_inline(buf, end)
    info[OFFSET] = pos
    info[INDEX] = 1
    if at_line_end(buf, pos):
        info[STATUS] = EOL
        return 0, 0, pos, line
    status, m, end = read_number(buf, pos)
    if status != OK:
        info[STATUS] = status
        return 0, 0, pos, line
    if m < 0:
        info[STATUS] = NEGATIVE
        info[VALUE] = m
        return 0, 0, pos, line
    pos = skip_inline(buf, end)
    if not at_line_end(buf, pos):
        info[STATUS] = EXTRA
        info[OFFSET] = pos
        return 0, 0, pos, line
    info[STATUS] = OK
    return n, m, pos, line


@nb.njit(cache=True)
def parse_body(buf, pos, line, n, src, dst, primitive, words, lengths, info):  # type: ignore[no-untyped-def]
    """Fill `src`, `dst` (one slot per move, m = len(src)) and `primitive` (one per position).

    On an error, `info` holds the status, line, byte offset, move index or position, and the
    offending number; filling stops there.
    """
    size = buf.shape[0]
    m = src.shape[0]
    for k in range(m):
        pos, line = skip_to_token(buf, pos, line)
        info[LINE] = line
        info[INDEX] = k
        info[OFFSET] = pos
        if pos >= size:
            info[STATUS] = EOF_MOVES
            return
        for j in range(2):
            if j == 1:
                pos = skip_inline(buf, pos)
                info[OFFSET] = pos
                if at_line_end(buf, pos):
                    info[STATUS] = EOL
                    return
            status, x, end = read_number(buf, pos)
            if status != OK:
                info[STATUS] = status
                return
            if x < 0 or x >= n:
                info[STATUS] = RANGE
                info[VALUE] = x
                return
            if j == 0:
                src[k] = x
            else:
                dst[k] = x
            pos = end
        pos = skip_inline(buf, pos)
        if not at_line_end(buf, pos):
            info[STATUS] = EXTRA
            info[OFFSET] = pos
            return
    info[INDEX] = -1  # from here on, errors are about primitive value lines
    while True:
        pos, line = skip_to_token(buf, pos, line)
        info[LINE] = line
        info[OFFSET] = pos
        if pos >= size:
            break
        status, u, end = read_number(buf, pos)
        if status != OK:
            info[STATUS] = status
            return
        if u < 0 or u >= n:
            info[STATUS] = RANGE
            info[VALUE] = u
            return
        pos = skip_inline(buf, end)
        info[OFFSET] = pos
        info[VALUE] = u
        if at_line_end(buf, pos):
            info[STATUS] = EOL
            return
        value, end = read_value_word(buf, pos, words, lengths)
        if value == UNDECIDED:
            info[STATUS] = BAD_WORD
            return
        if value == DRAW:
            info[STATUS] = DRAW_WORD
            return
        if primitive[u] != UNDECIDED:
            info[STATUS] = DUPLICATE
            return
        primitive[u] = value
        pos = skip_inline(buf, end)
        if not at_line_end(buf, pos):
            info[STATUS] = EXTRA
            info[OFFSET] = pos
            return
    info[STATUS] = OK


@nb.njit(cache=True)
def write_int(out, pos, x):  # type: ignore[no-untyped-def]
    if x < 0:
        out[pos] = 45
        pos += 1
        x = -x
    start = pos
    while True:
        out[pos] = 48 + x % 10
        pos += 1
        x //= 10
        if x == 0:
            break
    i, j = start, pos - 1
    while i < j:
        out[i], out[j] = out[j], out[i]
        i += 1
        j -= 1
    return pos


@nb.njit(cache=True)
def format_lines(value, remoteness, words, lengths, out):  # type: ignore[no-untyped-def]
    """Write ``id VALUE remoteness`` lines into `out` (n longest lines long); return bytes used."""
    pos = 0
    for p in range(value.shape[0]):
        pos = write_int(out, pos, p)
        out[pos] = 32
        pos += 1
        v = value[p]
        for i in range(lengths[v]):
            out[pos] = words[v, i]
            pos += 1
        out[pos] = 32
        pos += 1
        if remoteness[p] == NO_REMOTENESS:
            out[pos] = 45
            pos += 1
        else:
            pos = write_int(out, pos, remoteness[p])
        out[pos] = 10
        pos += 1
    return pos


JSON_ID = np.frombuffer(b'{"id": ', dtype=np.uint8)
JSON_VALUE = np.frombuffer(b', "value": "', dtype=np.uint8)
JSON_REMOTENESS = np.frombuffer(b'", "remoteness": ', dtype=np.uint8)
JSON_NULL = np.frombuffer(b"null", dtype=np.uint8)


@nb.njit(cache=True)
def put(out, pos, text):  # type: ignore[no-untyped-def]
    for i in range(text.shape[0]):
        out[pos + i] = text[i]
    return pos + text.shape[0]


@nb.njit(cache=True)
def format_entries(value, remoteness, words, lengths, parts, out):  # type: ignore[no-untyped-def]
    """Write the ``{"id": p, "value": "WIN", "remoteness": r}`` entries, joined by ``, ``, into
    `out` (n longest entries long); return the bytes used. `parts`: the constant pieces (JSON_ID,
    JSON_VALUE, JSON_REMOTENESS, JSON_NULL)."""
    pos = 0
    for p in range(value.shape[0]):
        if p:
            out[pos] = 44  # ", "
            out[pos + 1] = 32
            pos += 2
        pos = put(out, pos, parts[0])
        pos = write_int(out, pos, p)
        pos = put(out, pos, parts[1])
        v = value[p]
        for i in range(lengths[v]):
            out[pos] = words[v, i]
            pos += 1
        pos = put(out, pos, parts[2])
        if remoteness[p] == NO_REMOTENESS:
            pos = put(out, pos, parts[3])
        else:
            pos = write_int(out, pos, remoteness[p])
        out[pos] = 125  # "}"
        pos += 1
    return pos
