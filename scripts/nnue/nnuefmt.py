"""Readers and writers for sako's two network file formats (see docs/nnue.md).

- SAKOFEAT: training positions written by `sako nnue-features`, read here without loading
  the whole file: the file is memory-mapped as 16-bit words (every record starts at an even
  byte, since the header has 16 bytes and a record 6 + 4n), and only the position of each
  record and its few header fields are kept in memory.
- SAKONNUE: a quantised network as the engine loads it, version 1 (clipped ReLU, one
  output), 2 (an activation code and output buckets chosen by the number of active
  inputs), 3 (version 2 with king buckets: one input layer per bucket of the view's own
  royal piece's square), 4 (version 2 with the output scale, and king buckets or not) or 5
  (version 4 with a material-scale table: a factor per count of active inputs).

- SAKODATA: `sako datagen --format bin` training records (see docs/datagen.md), read by
  `read_sakodata` as a numpy structured array (memory-mapped) and decoded per record by
  `decode_board`.

Only numpy is needed, so evaluate.py runs without JAX.
"""

import mmap
import os
import shutil
import subprocess
import math
import struct
from array import array

import numpy as np

FEAT_MAGIC = b"SAKOFEAT"
FEAT_VERSION = 1
NET_MAGIC = b"SAKONNUE"
NET_VERSIONS = (1, 2, 3, 4, 5)

CRELU, SCRELU = 0, 1  # activation codes of version 2
ACTIVATIONS = {"crelu": CRELU, "screlu": SCRELU}
MAX_BUCKETS = 16
MAX_KING_BUCKETS = 64
DEFAULT_OUTPUT_SCALE = 400  # centipawns per unit of y before version 4
MAX_OUTPUT_SCALE = 10000
MAX_MATERIAL_ENTRIES = 512  # most entries of a version-5 material-scale table
MATERIAL_UNIT = 1024  # a material factor of 1024 leaves the evaluation as it is
MAX_MATERIAL_FACTOR = 4 * MATERIAL_UNIT

K_HAND = 8  # hand cap K
QA = 255  # W1, B1 scale
QB = 64  # W2 scale (B2 uses QA*QB)
WEIGHT_CLIP = 1.98

I16_MIN, I16_MAX = -(1 << 15), (1 << 15) - 1
I32_MIN, I32_MAX = -(1 << 31), (1 << 31) - 1
# With the squared clipped ReLU the engine sums clamp(a)^2 * W2 over one view's H units in
# 32 bits: exact while the view's sum of |W2| stays within this (= (2^31 - 1) // QA^2).
SCRELU_VIEW_W2_SUM = I32_MAX // (QA * QA)


class FormatError(Exception):
    pass


# ----- SAKODATA: sako datagen's binary training records (docs/datagen.md) --------------

DATA_MAGIC = b"SAKODATA"
DATA_VERSION = 1
DATA_HEADER = 32
DATA_RECORD = 80
DATA_DTYPE = np.dtype([
    ("occupancy", "<u8", (2,)),  # bit s of the 128 set when square s holds a piece
    ("pieces", "u1", (28,)),  # 5-bit piece codes (2*type + colour) in square order
    ("hand", "u1", (2, 10)),  # pieces in hand per colour and type
    ("side", "u1"),  # 0 White to move, 1 Black
    ("result", "u1"),  # for White: 0 lost, 1 draw, 2 won
    ("ep", "u1"),  # en-passant square, 255 none
    ("variant", "u1"),
    ("castling", "<u4"),
    ("halfmove", "<u2"),
    ("fullmove", "<u2"),
    ("score", "<i2"),  # centipawns for White
    ("reserved", "<u2"),
])
assert DATA_DTYPE.itemsize == DATA_RECORD


def file_kind(path):
    """What a training input file is: "features" (SAKOFEAT), "sakodata" (datagen's
    binary records) or "lines" (datagen's `FEN | score | result` text)."""
    with open(path, "rb") as f:
        head = f.read(8)
    if head == FEAT_MAGIC:
        return "features"
    if head == DATA_MAGIC:
        return "sakodata"
    return "lines"


def find_sako(sako=None):
    """The sako binary to run: `sako`, else $SAKO, else this checkout's release build,
    else `sako` on PATH; None when there is none."""
    if sako:
        return sako
    if os.environ.get("SAKO"):
        return os.environ["SAKO"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    built = os.path.join(root, "target", "release", "sako")
    if os.path.exists(built):
        return built
    return shutil.which("sako")


def feature_files(paths, variant, sako=None, feature_dir=None, log=print):
    """The SAKOFEAT files for `paths`: feature files as they are; datagen files (either
    format) turned into features by `sako nnue-features`, kept as
    `<name>.<size>.feat` in `feature_dir` (default: beside the file) and reused while the
    data file keeps that size (a growing datagen file gets fresh features). Text lines do
    not name their game: they are read as `variant`; SAKODATA names its own."""
    out = []
    for path in paths:
        kind = file_kind(path)
        if kind == "features":
            out.append(path)
            continue
        game = read_sakodata(path, partial_ok=True)[0] if kind == "sakodata" else variant
        size = os.path.getsize(path)
        folder = feature_dir or os.path.dirname(os.path.abspath(path))
        feat = os.path.join(folder, f"{os.path.basename(path)}.{size}.feat")
        if not os.path.exists(feat):
            binary = find_sako(sako)
            if not binary:
                raise FormatError(f"{path}: a datagen file, and no sako binary to turn it "
                                  f"into features (give --sako or set $SAKO)")
            os.makedirs(folder, exist_ok=True)
            part = feat + ".part"
            log(f"features of {path} ({game}) -> {feat}")
            done = subprocess.run([binary, "nnue-features", "--variant", game, "--data", path,
                                   "--out", part], capture_output=True, text=True)
            if done.returncode != 0:
                raise FormatError(f"{path}: sako nnue-features failed: "
                                  f"{done.stderr.strip() or done.stdout.strip()}")
            os.replace(part, feat)
        out.append(feat)
    return out


def read_sakodata(path, partial_ok=False):
    """A SAKODATA file: (variant name, records as a memory-mapped structured array of
    DATA_DTYPE). A wrong magic, version or record size is a FormatError, and so is a
    partial record at the end unless partial_ok (then it is left out)."""
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(DATA_HEADER)
    if len(head) < DATA_HEADER:
        raise FormatError(f"{path}: too short for a SAKODATA header ({len(head)} bytes)")
    if head[:8] != DATA_MAGIC:
        raise FormatError(f"{path}: not a SAKODATA file (magic {head[:8]!r})")
    version, record = struct.unpack_from("<II", head, 8)
    if version != DATA_VERSION:
        raise FormatError(f"{path}: SAKODATA version {version}, not {DATA_VERSION}")
    if record != DATA_RECORD:
        raise FormatError(f"{path}: record size {record}, not {DATA_RECORD}")
    variant = head[16:32].split(b"\0", 1)[0].decode("ascii", "replace")
    body = size - DATA_HEADER
    if body % DATA_RECORD and not partial_ok:
        raise FormatError(f"{path}: a partial record of {body % DATA_RECORD} bytes at the end")
    n = body // DATA_RECORD
    if n == 0:
        return variant, np.zeros(0, dtype=DATA_DTYPE)
    return variant, np.memmap(path, dtype=DATA_DTYPE, mode="r", offset=DATA_HEADER, shape=(n,))


def decode_board(rec):
    """One record's board: a dict square -> piece code (2*type + colour)."""
    occ = int(rec["occupancy"][0]) | int(rec["occupancy"][1]) << 64
    packed = int.from_bytes(bytes(rec["pieces"]), "little")
    board, k = {}, 0
    for sq in range(128):
        if occ >> sq & 1:
            board[sq] = packed >> (5 * k) & 31
            k += 1
    return board


def sakodata_targets(records):
    """Scores (centipawns for White) and results (1, 0.5, 0 for White) as float32."""
    return (records["score"].astype(np.float32),
            records["result"].astype(np.float32) / 2)


def num_inputs(types, squares, hand=K_HAND):
    """F = 2*T*(N + K), the inputs per point of view."""
    return 2 * types * (squares + hand)


class FeatureFile:
    """One SAKOFEAT file, memory-mapped.

    Per position (arrays of length `count`): `offset` (word index of the record),
    `stm` (0 White, 1 Black), `result` (0 Black won, 1 draw, 2 White won),
    `score` (centipawns, White's view) and `n` (active inputs per view).
    """

    def __init__(self, path, check_inputs=True):
        self.path = path
        size = os.path.getsize(path)
        if size < 16:
            raise FormatError(f"{path}: {size} bytes, shorter than the 16-byte header")
        with open(path, "rb") as f:
            head = f.read(16)
        magic, version, F = struct.unpack("<8sII", head)
        if magic == DATA_MAGIC:
            raise FormatError(
                f"{path}: sako datagen's binary records (SAKODATA), not network inputs: "
                f"turn them into a SAKOFEAT file first with "
                f"`sako nnue-features --variant V --data {path} --out FILE.feat`")
        if magic != FEAT_MAGIC:
            raise FormatError(f"{path}: bad magic {magic!r} (want {FEAT_MAGIC!r})")
        if version != FEAT_VERSION:
            raise FormatError(f"{path}: version {version}, this reader knows {FEAT_VERSION}")
        if F == 0 or F > 65535:
            raise FormatError(f"{path}: F = {F} out of range")
        if size % 2:
            raise FormatError(f"{path}: odd length {size}, a record was cut")
        self.F = F
        self.words = np.memmap(path, dtype="<u2", mode="r")
        self.offset = self._scan(path, size // 2)
        self.count = len(self.offset)
        head = np.asarray(self.words[self.offset])
        self.stm = (head & 0xFF).astype(np.uint8)
        self.result = (head >> 8).astype(np.uint8)
        self.score = np.asarray(self.words[self.offset + 1]).view("<i2").astype(np.int16)
        self.n = np.asarray(self.words[self.offset + 2]).astype(np.uint16)
        if self.count:
            if self.stm.max() > 1:
                bad = int(np.argmax(self.stm > 1))
                raise FormatError(f"{path}: position {bad}: side to move {self.stm[bad]}")
            if self.result.max() > 2:
                bad = int(np.argmax(self.result > 2))
                raise FormatError(f"{path}: position {bad}: result {self.result[bad]}")
        if check_inputs:
            self._check_inputs()

    @staticmethod
    def _scan(path, nwords):
        """Word offsets of every record (a sequential walk: each record's length is in it)."""
        if not np.little_endian:
            raise FormatError("this reader needs a little-endian machine")
        offs = array("q")
        append = offs.append
        with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            mv = memoryview(mm).cast("H")
            try:
                p = 8
                end = nwords
                while p < end:
                    if p + 3 > end:
                        raise FormatError(f"{path}: record {len(offs)} cut in its header")
                    append(p)
                    p += 3 + 2 * mv[p + 2]
            finally:
                mv.release()
        if p != end:
            raise FormatError(f"{path}: record {len(offs) - 1} runs past the end of the file")
        return np.frombuffer(offs, dtype=np.int64).copy() if len(offs) else np.zeros(0, np.int64)

    def _check_inputs(self, chunk=1 << 24):
        """Every input index below F (checked over the file in chunks of words)."""
        if self.count == 0:
            return
        w = self.words
        nwords = len(w)
        starts = self.offset
        lo = 8
        while lo < nwords:
            hi = min(nwords, lo + chunk)
            block = np.asarray(w[lo:hi])
            keep = np.ones(hi - lo, dtype=bool)
            a = np.searchsorted(starts, lo - 2)
            b = np.searchsorted(starts, hi)
            for k in range(3):
                pos = starts[a:b] + k - lo
                pos = pos[(pos >= 0) & (pos < hi - lo)]
                keep[pos] = False
            vals = block[keep]
            if vals.size and int(vals.max()) >= self.F:
                word = lo + int(np.flatnonzero(keep)[np.argmax(vals >= self.F)])
                rec = int(np.searchsorted(starts, word, side="right")) - 1
                raise FormatError(
                    f"{self.path}: position {rec}: input {int(w[word])} >= F = {self.F}")
            lo = hi

    def gather(self, local, width, pad):
        """White's and Black's view inputs of positions `local`, as (len, width) int32 arrays
        padded with `pad`."""
        m = len(local)
        n = self.n[local].astype(np.int64)
        if m and n.max() > width:
            raise ValueError(f"a position has {n.max()} inputs, more than the width {width}")
        white = np.full((m, width), pad, dtype=np.int32)
        black = np.full((m, width), pad, dtype=np.int32)
        total = int(n.sum())
        if total:
            rows = np.repeat(np.arange(m), n)
            first = np.cumsum(n) - n
            cols = np.arange(total) - np.repeat(first, n)
            base = np.repeat(self.offset[local] + 3, n) + cols
            white[rows, cols] = self.words[base]
            black[rows, cols] = self.words[base + np.repeat(n, n)]
        return white, black


class FeatureSet:
    """Several feature files seen as one list of positions (all with the same F)."""

    def __init__(self, paths, check_inputs=True):
        self.files = [FeatureFile(p, check_inputs) for p in paths]
        Fs = {f.F for f in self.files}
        if len(Fs) != 1:
            raise FormatError("the feature files disagree on F: " + ", ".join(
                f"{f.path}: {f.F}" for f in self.files))
        self.F = Fs.pop()
        self.starts = np.cumsum([0] + [f.count for f in self.files])
        self.count = int(self.starts[-1])
        cat = lambda name: np.concatenate([getattr(f, name) for f in self.files]) \
            if self.files else np.zeros(0)
        self.stm = cat("stm")
        self.result = cat("result")
        self.score = cat("score")
        self.n = cat("n")
        self.max_n = int(self.n.max()) if self.count else 0

    def targets(self, lam):
        """lam*wdl + (1-lam)*sigmoid(score/400), both from the side to move's view."""
        wdl_white = self.result.astype(np.float32) * 0.5
        black = self.stm == 1
        wdl = np.where(black, 1.0 - wdl_white, wdl_white)
        score = self.score.astype(np.float32)
        score = np.where(black, -score, score)
        return (lam * wdl + (1.0 - lam) / (1.0 + np.exp(-score / 400.0))).astype(np.float32)

    def gather(self, idx, width):
        """(us, them) input arrays of global positions `idx` (any order), padded with F.
        `us` is the side to move's view. Rows come back in the order of `idx`."""
        idx = np.asarray(idx, dtype=np.int64)
        order = np.argsort(idx, kind="stable")
        sidx = idx[order]
        white = np.empty((len(idx), width), dtype=np.int32)
        black = np.empty((len(idx), width), dtype=np.int32)
        bounds = np.searchsorted(sidx, self.starts)
        for k, f in enumerate(self.files):
            a, b = bounds[k], bounds[k + 1]
            if a == b:
                continue
            w, bl = f.gather(sidx[a:b] - self.starts[k], width, self.F)
            white[order[a:b]] = w
            black[order[a:b]] = bl
        blk = self.stm[idx] == 1
        us = np.where(blk[:, None], black, white)
        them = np.where(blk[:, None], white, black)
        return us, them


def rescaled(S, factor):
    """The output scale S times `factor`, rounded: the scale of a net whose evaluations
    are `factor` times those at S. Raises ValueError when the factor is not finite or the
    result lies outside 1 to MAX_OUTPUT_SCALE."""
    if not math.isfinite(factor):
        raise ValueError(f"scale factor {factor} is not finite")
    new = int(round(S * factor))
    if not 1 <= new <= MAX_OUTPUT_SCALE:
        raise ValueError(f"output scale {new} (1 to {MAX_OUTPUT_SCALE})")
    return new


class Net:
    """A quantised network: integer arrays as stored in the file. W1 is (KB*F, H), bucket
    k's input i at row k*F + i; W2 is (O, 2H) and B2 (O,), one row per output bucket; a
    version-1 net has O = 1. King buckets: the royal type R (None without buckets), their
    number KB and the map M (N bucket numbers); versions 1 and 2 have KB = 1, M all 0."""

    def __init__(self, games, T, N, K, H, W1, B1, W2, B2, activation=CRELU, buckets=1,
                 divisor=1, royal=None, king_buckets=1, king_map=None,
                 output_scale=DEFAULT_OUTPUT_SCALE, material=None):
        self.games, self.T, self.N, self.K, self.H = games, T, N, K, H
        self.S = int(output_scale)
        # Version 5's material scale: a factor in 1/1024 per count of active inputs.
        self.material = None if material is None else [int(v) for v in material]
        self.A, self.O, self.D = int(activation), int(buckets), int(divisor)
        self.F = num_inputs(T, N, K)
        self.R = None if royal is None else int(royal)
        self.KB = int(king_buckets)
        self.M = np.zeros(N, np.int64) if king_map is None \
            else np.asarray(king_map, dtype=np.int64).reshape(N)
        W1 = np.asarray(W1, dtype=np.int64)
        if W1.size != self.KB * self.F * H:
            raise ValueError(f"W1 has {W1.size} weights, {self.KB} king bucket(s) of "
                             f"F = {self.F} inputs and H = {H} need {self.KB * self.F * H}")
        self.W1 = W1.reshape(self.KB * self.F, H)
        self.B1 = np.asarray(B1, dtype=np.int64).reshape(H)
        self.W2 = np.asarray(W2, dtype=np.int64).reshape(self.O, 2 * H)
        self.B2 = np.asarray(B2, dtype=np.int64).reshape(self.O)

    def version(self):
        """5 with a material-scale table; else 4 with an output scale S other than 400; else
        3 with king buckets (KB > 1); else 1 for the clipped ReLU with one output bucket (the
        divisor then plays no part), else 2."""
        if self.material is not None:
            return 5
        if self.S != DEFAULT_OUTPUT_SCALE:
            return 4
        if self.KB > 1:
            return 3
        return 1 if (self.A, self.O) == (CRELU, 1) else 2

    def bucket(self, n):
        """The output bucket of positions with n active inputs per view: min(n // D, O - 1)."""
        return np.minimum(np.asarray(n, dtype=np.int64) // self.D, self.O - 1)

    def material_factor(self, n):
        """The material scale's factor (1024 = none) for positions with n active inputs."""
        n = np.asarray(n, dtype=np.int64)
        if self.material is None:
            return np.full(n.shape, MATERIAL_UNIT, np.int64)
        table = np.asarray(self.material, dtype=np.int64)
        return table[np.minimum(n, len(table) - 1)]

    def king_buckets(self, view):
        """Each row's king bucket for the view inputs `view` (see king_buckets)."""
        if self.KB == 1:
            return np.zeros(len(view), np.int64)
        return king_buckets(view, self.R, self.N, self.M)

    def file_size(self):
        """The length of the file write_net makes of this net."""
        version = self.version()
        extra = (12 if version >= 2 else 0) + (8 if version >= 4 else 0) \
            + (8 + self.N if self.KB > 1 else 0) \
            + (4 + 2 * len(self.material) if version == 5 else 0)
        return 8 + 4 + 4 + len(self.games.encode()) + 16 + extra \
            + self.KB * self.F * self.H * 2 + self.H * 2 + self.O * (2 * self.H * 2 + 4)

    def screlu_overflows(self):
        """(bucket, view) pairs whose sum of |W2| can take the engine's squared-ReLU sum
        past 32 bits (none for H <= 256 with the trainer's clip)."""
        H = self.H
        halves = np.abs(self.W2).reshape(self.O, 2, H).sum(axis=2)
        return [(int(b), int(v)) for b, v in np.argwhere(halves > SCRELU_VIEW_W2_SUM)]


def check_output(activation, buckets, divisor):
    """The version-2 header fields, checked as the engine does."""
    if activation not in (CRELU, SCRELU):
        raise ValueError(f"activation code {activation} (0 crelu, 1 screlu)")
    if not 1 <= buckets <= MAX_BUCKETS:
        raise ValueError(f"{buckets} output buckets (1 to {MAX_BUCKETS})")
    if divisor < 1:
        raise ValueError(f"bucket divisor {divisor} (at least 1)")


def check_kings(T, N, royal, king_buckets, king_map):
    """Version 3's king fields, checked as the engine does: R below T, KB from 1 to 64,
    and a map of N buckets below KB."""
    if not 0 <= royal < T:
        raise ValueError(f"royal type R = {royal}, not below T = {T}")
    if not 1 <= king_buckets <= MAX_KING_BUCKETS:
        raise ValueError(f"{king_buckets} king buckets (1 to {MAX_KING_BUCKETS})")
    m = np.asarray(king_map)
    if m.shape != (N,):
        raise ValueError(f"the king bucket map has {m.size} entries, N = {N}")
    if m.min() < 0 or m.max() >= king_buckets:
        s = int(np.argmax((m < 0) | (m >= king_buckets)))
        raise ValueError(f"the king bucket map gives square {s} bucket {int(m[s])}, "
                         f"KB = {king_buckets}")


def king_buckets(view, royal, N, king_map):
    """Each row's king bucket: view is a (rows, width) array of one view's inputs (any
    padding, such as F, is ignored); the view's own royal piece on square s' is input
    R*N + s' (own pieces have r = 0), and its bucket is M[s']. Bucket 0 for a row without
    one; with several, the lowest square counts."""
    view = np.asarray(view)
    lo = royal * N
    square = np.where((view >= lo) & (view < lo + N), view - lo, N).min(axis=1, initial=N)
    return np.append(np.asarray(king_map, np.int64), 0)[square]


def check_games(games):
    names = [g.strip() for g in games.split(",")]
    if not names or any(not g or any(c.isspace() for c in g) for g in names):
        raise ValueError(f"bad games list {games!r} (want comma-separated names)")
    return ",".join(names)


def check_hidden(H):
    if not (8 <= H <= 4096 and H % 8 == 0):
        raise ValueError(f"H = {H}: the engine wants 8 <= H <= 4096 and a multiple of 8")


def round_half_away(x):
    x = np.asarray(x, dtype=np.float64)
    return np.trunc(x + np.copysign(0.5, x))


def quantise(games, T, N, K, W1, B1, W2, B2, activation=CRELU, divisor=1, royal=None,
             king_map=None):
    """Float weights to the integer net (W1, B1 times QA; W2 times QB; B2 times QA*QB).
    W1 is (KB*F, H): KB = 1 without king buckets, else royal type and king_map (N buckets
    below KB) are needed. W2 is (2H,) or (O, 2H), B2 a scalar or (O,)."""
    H = int(np.shape(B1)[0])
    F = num_inputs(T, N, K)
    KB, rest = divmod(int(np.shape(W1)[0]), F)
    if rest or KB < 1:
        raise ValueError(f"W1 has {np.shape(W1)[0]} rows, not a multiple of F = {F}")
    if KB > 1 or king_map is not None:
        if king_map is None:
            raise ValueError(f"W1 has {KB} king buckets but no bucket map")
        check_kings(T, N, royal, KB, king_map)
    q1 = round_half_away(np.asarray(W1) * QA)
    qb1 = round_half_away(np.asarray(B1) * QA)
    q2 = round_half_away(np.asarray(W2).reshape(-1, 2 * H) * QB)
    qb2 = round_half_away(np.asarray(B2, dtype=np.float64).reshape(-1) * QA * QB)
    if len(qb2) != len(q2):
        raise ValueError(f"{len(q2)} rows of W2 but {len(qb2)} values of B2")
    for name, arr in (("W1", q1), ("B1", qb1), ("W2", q2)):
        if arr.size and (arr.min() < I16_MIN or arr.max() > I16_MAX):
            raise ValueError(f"{name} does not fit 16 bits after quantisation")
    if qb2.min() < I32_MIN or qb2.max() > I32_MAX:
        raise ValueError("B2 does not fit 32 bits after quantisation")
    check_output(activation, len(q2), divisor)
    return Net(games, T, N, K, H, q1, qb1, q2, qb2, activation, len(q2), divisor, royal,
               KB, king_map)


def dequantise(net, dtype=np.float64):
    """The float weights (W1, B1, W2, B2) a quantised net stands for: its integers over
    the scales of `quantise`; W2 is (O, 2H) and B2 (O,)."""
    return (net.W1.astype(dtype) / QA, net.B1.astype(dtype) / QA,
            net.W2.astype(dtype) / QB, (net.B2 / (QA * QB)).astype(dtype))


def write_net(path, net):
    """Writes `net` as net.version() says (5 with a material table, 4 with an output scale
    other than 400, 3 with king buckets, else 1 when it can be, else 2)."""
    games = net.games.encode("utf-8")
    version = net.version()
    parts = [
        struct.pack("<8sII", NET_MAGIC, version, len(games)),
        games,
        struct.pack("<4I", net.T, net.N, net.K, net.H),
    ]
    if version >= 2:
        parts.append(struct.pack("<3I", net.A, net.O, net.D))
    if version >= 4:
        parts.append(struct.pack("<2I", net.S, int(net.KB > 1)))
    if version == 3 or (version >= 4 and net.KB > 1):
        parts += [struct.pack("<2I", net.R, net.KB), net.M.astype(np.uint8).tobytes()]
    if version == 5:
        check_material(net.material)
        parts += [struct.pack("<I", len(net.material)),
                  np.asarray(net.material, dtype="<u2").tobytes()]
    parts += [net.W1.astype("<i2").tobytes(), net.B1.astype("<i2").tobytes()]
    for b in range(net.O):
        parts += [net.W2[b].astype("<i2").tobytes(), struct.pack("<i", int(net.B2[b]))]
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        for p in parts:
            f.write(p)
    os.replace(tmp, path)
    size = os.path.getsize(path)
    if size != net.file_size():
        raise AssertionError(f"{path}: wrote {size} bytes, expected {net.file_size()}")
    return size


def _read_output_header(path, data, p, version):
    """(activation, buckets, divisor, next offset): version 2's fields, or version 1's."""
    if version == 1:
        return CRELU, 1, 1, p
    if len(data) < p + 12:
        raise FormatError(f"{path}: cut in the header")
    A, O, D = struct.unpack_from("<3I", data, p)
    try:
        check_output(A, O, D)
    except ValueError as e:
        raise FormatError(f"{path}: {e}")
    return A, O, D, p + 12


def _read_scale_header(path, data, p, version):
    """(output scale, whether king fields follow, next offset): version 4's fields; for
    versions 1 to 3 (400, version == 3, p)."""
    if version < 4:
        return DEFAULT_OUTPUT_SCALE, version == 3, p
    if len(data) < p + 8:
        raise FormatError(f"{path}: cut in the header")
    S, flag = struct.unpack_from("<2I", data, p)
    if not 1 <= S <= MAX_OUTPUT_SCALE:
        raise FormatError(f"{path}: output scale {S} (1 to {MAX_OUTPUT_SCALE})")
    if flag not in (0, 1):
        raise FormatError(f"{path}: king-bucket flag {flag} (0 or 1)")
    return S, flag == 1, p + 8


def check_material(table):
    """A version-5 material-scale table, checked as the engine does."""
    if not 1 <= len(table) <= MAX_MATERIAL_ENTRIES:
        raise ValueError(f"material scale: {len(table)} entries (1 to {MAX_MATERIAL_ENTRIES})")
    for n, v in enumerate(table):
        if not 1 <= v <= MAX_MATERIAL_FACTOR:
            raise ValueError(f"material scale: entry {n} is {v} "
                             f"(1 to {MAX_MATERIAL_FACTOR}, in 1/{MATERIAL_UNIT})")


def _read_material(path, data, p, version):
    """(table or None, next offset): version 5's material-scale table."""
    if version < 5:
        return None, p
    if len(data) < p + 4:
        raise FormatError(f"{path}: cut in the header")
    (count,) = struct.unpack_from("<I", data, p)
    if not 1 <= count <= MAX_MATERIAL_ENTRIES or len(data) < p + 4 + 2 * count:
        raise FormatError(f"{path}: material scale of {count} entries "
                          f"(1 to {MAX_MATERIAL_ENTRIES}) or cut short")
    table = [int(v) for v in np.frombuffer(data, "<u2", count, p + 4)]
    try:
        check_material(table)
    except ValueError as e:
        raise FormatError(f"{path}: {e}")
    return table, p + 4 + 2 * count


def _read_king_header(path, data, p, kings, T, N):
    """(royal type, king buckets, map, next offset): the king fields when `kings`, else
    (None, 1, None, p)."""
    if not kings:
        return None, 1, None, p
    if len(data) < p + 8 + N:
        raise FormatError(f"{path}: cut in the header")
    R, KB = struct.unpack_from("<2I", data, p)
    M = np.frombuffer(data, np.uint8, N, p + 8).astype(np.int64)
    try:
        check_kings(T, N, R, KB, M)
    except ValueError as e:
        raise FormatError(f"{path}: {e}")
    return R, KB, M, p + 8 + N


def read_net(path):
    """The Net in a .nnue file of any version, checked as the engine checks it (all but
    the game: FormatError with the reason)."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 16:
        raise FormatError(f"{path}: too short for a net")
    magic, version, L = struct.unpack_from("<8sII", data, 0)
    if magic != NET_MAGIC:
        raise FormatError(f"{path}: bad magic {magic!r} (want {NET_MAGIC!r})")
    if version not in NET_VERSIONS:
        raise FormatError(f"{path}: version {version}, this reader knows {NET_VERSIONS}")
    p = 16
    if len(data) < p + L + 16:
        raise FormatError(f"{path}: cut in the header")
    try:
        games = data[p:p + L].decode("utf-8")
    except UnicodeDecodeError as e:
        raise FormatError(f"{path}: games text is not UTF-8: {e}")
    p += L
    T, N, K, H = struct.unpack_from("<4I", data, p)
    p += 16
    if not (8 <= H <= 4096 and H % 8 == 0):
        raise FormatError(f"{path}: H = {H} (want 8..4096, a multiple of 8)")
    if K != K_HAND:
        raise FormatError(f"{path}: K = {K}, sako uses {K_HAND}")
    if T == 0 or N == 0:
        raise FormatError(f"{path}: T = {T}, N = {N}")
    A, O, D, p = _read_output_header(path, data, p, version)
    S, kings, p = _read_scale_header(path, data, p, version)
    R, KB, M, p = _read_king_header(path, data, p, kings, T, N)
    material, p = _read_material(path, data, p, version)
    F = num_inputs(T, N, K)
    want = p + KB * F * H * 2 + H * 2 + O * (2 * H * 2 + 4)
    if len(data) != want:
        how = "cut short" if len(data) < want else "trailing bytes"
        raise FormatError(f"{path}: {len(data)} bytes, a net with F = {F}, H = {H}, O = {O}, "
                          f"KB = {KB} and L = {L} has {want} ({how})")
    W1 = np.frombuffer(data, "<i2", KB * F * H, p); p += KB * F * H * 2
    B1 = np.frombuffer(data, "<i2", H, p); p += H * 2
    W2, B2 = [], []
    for _ in range(O):
        W2.append(np.frombuffer(data, "<i2", 2 * H, p)); p += 2 * H * 2
        B2.append(struct.unpack_from("<i", data, p)[0]); p += 4
    return Net(games, T, N, K, H, W1, B1, np.stack(W2), B2, A, O, D, R, KB, M, S, material)
