"""Frames of the play surface as arrays, and what the pixels say: blank or not, how much changed, what changed that
the game's own motion does not explain, and how predictable that motion is — so the effect of a control can be
measured on canvas and WebGL games as on DOM ones.

Screenshots come as PNG from Chromium; with `optimizeForSpeed` it filters every row with "Up", which decodes with a
few numpy operations. Other filters are decoded too (slower), so a browser that ignores the hint still works.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

import numpy as np

BLOCK = 6  # pixels of a frame per analysis block (12 CSS px of a 640 px wide canvas)
CHANGE_LEVEL = 10.0  # mean absolute difference (0..255) above which a block changed


class FrameError(ValueError):
    """A screenshot that is not a PNG this module can read."""


@dataclass(frozen=True)
class Frame:
    """One picture of the play surface: RGB pixels (h, w, 3) and when it was taken (monotonic seconds)."""

    rgb: np.ndarray
    at: float

    @property
    def gray(self) -> np.ndarray:
        return self.rgb.astype(np.float32).mean(axis=2)


def decode_png(png: bytes) -> np.ndarray:
    """The RGB pixels of an 8-bit RGB or RGBA PNG (alpha dropped) as a (height, width, 3) uint8 array."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise FrameError("not a PNG")
    pos, chunks, header = 8, [], None
    while pos + 8 <= len(png):
        (length,) = struct.unpack(">I", png[pos:pos + 4])
        kind = png[pos + 4:pos + 8]
        body = png[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise FrameError("a PNG without a header")
    width, height, depth, color, _, _, interlace = header
    if depth != 8 or color not in (2, 6) or interlace:
        raise FrameError(f"unsupported PNG (depth {depth}, colour type {color}, interlace {interlace})")
    bpp = 3 if color == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks)), dtype=np.uint8)
    stride = width * bpp
    rows = raw.reshape(height, stride + 1)
    pixels = _unfilter(rows[:, 0], rows[:, 1:], bpp)
    return pixels.reshape(height, width, bpp)[:, :, :3]


def _unfilter(kinds: np.ndarray, data: np.ndarray, bpp: int) -> np.ndarray:
    out = np.empty_like(data)
    prior = np.zeros(data.shape[1], dtype=np.uint8)
    for y in range(data.shape[0]):
        kind, line = int(kinds[y]), data[y]
        if kind == 0:
            row = line
        elif kind == 2:
            row = line + prior  # uint8 arithmetic wraps modulo 256, as PNG wants
        elif kind == 1:
            row = (np.cumsum(line.reshape(-1, bpp).astype(np.uint32), axis=0) % 256).astype(np.uint8).reshape(-1)
        else:
            row = _slow_row(kind, line, prior, bpp)
        out[y] = row
        prior = row
    return out


def _slow_row(kind: int, line: np.ndarray, prior: np.ndarray, bpp: int) -> np.ndarray:
    """Average (3) and Paeth (4) rows depend on the pixel to their left: decoded one byte at a time."""
    if kind not in (3, 4):
        raise FrameError(f"unknown PNG filter {kind}")
    row = bytearray(len(line))
    up = prior.tobytes()
    filtered = line.tobytes()
    for i, value in enumerate(filtered):
        left = row[i - bpp] if i >= bpp else 0
        above = up[i]
        if kind == 3:
            row[i] = (value + ((left + above) >> 1)) & 0xFF
        else:
            corner = up[i - bpp] if i >= bpp else 0
            estimate = left + above - corner
            pa, pb, pc = abs(estimate - left), abs(estimate - above), abs(estimate - corner)
            best = left if pa <= pb and pa <= pc else above if pb <= pc else corner
            row[i] = (value + best) & 0xFF
    return np.frombuffer(bytes(row), dtype=np.uint8)


# -- what one frame shows ----------------------------------------------------------------------------------------


def is_uniform(rgb: np.ndarray, tolerance: float = 4.0) -> bool:
    """A blank picture: every pixel (nearly) the same colour."""
    if rgb.size == 0:
        return True
    return float(rgb.reshape(-1, 3).astype(np.float32).std(axis=0).max()) <= tolerance


def detail_level(rgb: np.ndarray) -> float:
    """0..1: how much a picture shows — the share of its blocks with visible edges or texture."""
    gray = rgb.astype(np.float32).mean(axis=2)
    if gray.shape[0] < 2 or gray.shape[1] < 2:
        return 0.0
    edges = np.abs(np.diff(gray, axis=0))[:, :-1] + np.abs(np.diff(gray, axis=1))[:-1, :]
    blocks = _block_means(edges)
    return float((blocks > 4.0).mean()) if blocks.size else 0.0


def _block_means(values: np.ndarray, block: int = BLOCK) -> np.ndarray:
    h, w = values.shape[0] // block, values.shape[1] // block
    if h == 0 or w == 0:
        return np.zeros((0, 0), dtype=np.float32)
    cropped = values[:h * block, :w * block]
    return cropped.reshape(h, block, w, block).mean(axis=(1, 3))


# -- how two frames differ ---------------------------------------------------------------------------------------


def changed_blocks(a: Frame, b: Frame, level: float = CHANGE_LEVEL) -> np.ndarray:
    """A boolean grid: which blocks of the picture changed from `a` to `b`. The outermost ring of blocks never
    counts: a focus ring or a highlighted border around the play surface (a canvas focused by a click shows its
    ring on the next key press) is the page's, not the game answering."""
    if a.rgb.shape != b.rgb.shape:
        return np.ones((max(1, b.rgb.shape[0] // BLOCK), max(1, b.rgb.shape[1] // BLOCK)), dtype=bool)
    difference = np.abs(a.rgb.astype(np.int16) - b.rgb.astype(np.int16)).astype(np.float32).mean(axis=2)
    grid = _block_means(difference) > level
    if grid.shape[0] > 4 and grid.shape[1] > 4:
        grid[0, :] = grid[-1, :] = False
        grid[:, 0] = grid[:, -1] = False
    return grid


def changed_share(a: Frame, b: Frame) -> float:
    """0..1: the share of the picture that changed."""
    grid = changed_blocks(a, b)
    return float(grid.mean()) if grid.size else 0.0


def dilate(grid: np.ndarray, steps: int = 1) -> np.ndarray:
    out = grid.copy()
    for _ in range(steps):
        grown = out.copy()
        grown[1:, :] |= out[:-1, :]
        grown[:-1, :] |= out[1:, :]
        grown[:, 1:] |= out[:, :-1]
        grown[:, :-1] |= out[:, 1:]
        out = grown
    return out


def shifted(grid: np.ndarray, dy: int, dx: int) -> np.ndarray:
    """The grid moved by (dy, dx) blocks, what moves out dropped, what moves in empty."""
    out = np.zeros_like(grid)
    rows, cols = grid.shape
    if abs(dy) >= rows or abs(dx) >= cols:
        return out
    out[max(dy, 0):rows + min(dy, 0), max(dx, 0):cols + min(dx, 0)] = \
        grid[max(-dy, 0):rows + min(-dy, 0), max(-dx, 0):cols + min(-dx, 0)]
    return out


def drift(before: np.ndarray, after: np.ndarray, reach: int = 6) -> tuple[int, int]:
    """The block shift that best carries the changes of one window onto those of a later one (what keeps moving
    the same way); (0, 0) when nothing matches better than standing still."""
    best, best_overlap = (0, 0), int((before & after).sum())
    for dy in range(-reach, reach + 1):
        for dx in range(-reach, reach + 1):
            overlap = int((shifted(before, dy, dx) & after).sum())
            if overlap > best_overlap:
                best, best_overlap = (dy, dx), overlap
    return best


def unexplained(idle: np.ndarray, acting: np.ndarray, after: np.ndarray) -> int:
    """Blocks that changed while acting and changed neither just before nor just after: what acting did (a sprite
    that moved on a key), not what the game does on its own (enemies, backgrounds keep changing in all three)."""
    return int((acting & ~(idle | after)).sum())


def predictability(idle: np.ndarray, after: np.ndarray) -> float | None:
    """0..1: how well the changes of a later window are the earlier ones carried along one motion (a snake that
    keeps its heading: 1; one that turned: low); None when too little changed to tell."""
    if int(after.sum()) < 3 or int(idle.sum()) < 3:
        return None
    dy, dx = drift(idle, after)
    return round(int((shifted(idle, dy, dx) & after).sum()) / int(after.sum()), 3)


def surprise(idle: np.ndarray, after: np.ndarray) -> int:
    """Blocks that changed in a later window and are not the earlier window's changes carried along their motion
    (give or take a block): a mover that changed course, something that appeared where nothing was moving."""
    if int(after.sum()) == 0:
        return 0
    dy, dx = drift(idle, after)
    return int((after & ~dilate(shifted(idle, dy, dx), 1)).sum())
