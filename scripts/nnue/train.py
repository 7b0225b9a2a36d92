#!/usr/bin/env python3
"""Train a sako network (docs/nnue.md) on SAKOFEAT feature files with JAX and optax.

    train.py --data FILE.bin [FILE.bin ...] --out NET.nnue --games normal \\
             --types 6 --squares 64 --hidden 256 --epochs 10 --batch 4096 --lr 5e-3 \\
             --lambda 0.1 --seed 1 --val-share 0.02 --loss-csv loss.csv --threads 1 --mirror 8

The model is the engine's: a_v = B1 + sum of the W1 rows of the inputs active in view v,
clipped to [0, 1] (and squared with --activation screlu), the side to move's accumulator
first, y = B2[b] + W2[b] . [us, them] with the output bucket b = min(n // D, O - 1) of the
position's n active inputs per view (--output-buckets O, --bucket-divisor D), and
eval = 400*y centipawns. The loss is the mean squared error between sigmoid(y) and
lambda*wdl + (1 - lambda)*sigmoid(score/400), both from the side to move's view. Adam with
a cosine (or step) learning-rate schedule and optional decoupled weight decay, every weight
and bias clipped to [-1.98, 1.98] after each step; optionally each position mirrored left to
right at random (--mirror FILES). With --king-buckets MAP each view's input layer is the
one of the bucket of its own king's square (a version-3 net), trained through a factoriser:
a shared input layer plus one per bucket, summed when the net is written.

After every epoch the float weights and the optimiser state go to a checkpoint (.npz;
`--resume CKPT` continues from it) and the quantised net to --out.
"""

import argparse
import csv
import math
import os
import sys
import time


def parse_args(argv=None):
    ap = argparse.ArgumentParser(
        description="Train a sako NNUE network.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("--data", nargs="+", required=True,
                    help="SAKOFEAT feature files, or sako datagen files (SAKODATA records or "
                         "`FEN | score | result` lines), which are turned into feature files "
                         "with `sako nnue-features` first")
    ap.add_argument("--sako", default=None,
                    help="the sako binary that turns datagen files into features (default: "
                         "$SAKO, else target/release/sako of this checkout, else sako on PATH)")
    ap.add_argument("--feature-dir", default=None,
                    help="where the features of datagen files are kept (default: beside each "
                         "data file); a file's features are reused while its size is the same")
    ap.add_argument("--out", required=True, help="quantised net to write (.nnue)")
    ap.add_argument("--games", required=True,
                    help="comma-separated sako game names the net is for (normal, chancellor,chancellorx,kingsleap)")
    ap.add_argument("--types", type=int, required=True, help="piece types T of the games")
    ap.add_argument("--squares", type=int, required=True, help="squares N of the games")
    ap.add_argument("--hidden", type=int, default=256, help="accumulator size H")
    ap.add_argument("--output-buckets", type=int, default=1, metavar="O",
                    help="output buckets (1-16): a position with n active inputs per view "
                         "is evaluated by bucket min(n // D, O - 1)")
    ap.add_argument("--bucket-divisor", type=int, default=4, metavar="D",
                    help="active inputs per output bucket")
    ap.add_argument("--activation", choices=("crelu", "screlu"), default="crelu",
                    help="crelu: clip(a, 0, 1); screlu: its square. With crelu and one "
                         "bucket the net is written as version 1")
    ap.add_argument("--epochs", type=int, default=10, help="total epochs (a resumed run included)")
    ap.add_argument("--batch", type=int, default=4096,
                    help="positions per step (with a few million positions, 16384 gives too "
                         "few steps an epoch: measured in scripts/nnue/README.md)")
    ap.add_argument("--lr", type=float, default=5e-3)
    ap.add_argument("--schedule", choices=("step", "cosine"), default="cosine",
                    help="step: lr times --lr-drop for the last --drop-share of the epochs; "
                         "cosine: cosine decay to lr*--lr-drop over the run")
    ap.add_argument("--lr-drop", type=float, default=0.1)
    ap.add_argument("--drop-share", type=float, default=0.2)
    ap.add_argument("--lambda", dest="lam", type=float, default=0.5,
                    help="weight of the game result in the target (1-lambda: the score)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--w1-std", type=float, default=0.01,
                    help="standard deviation of the initial W1 (0: 1/sqrt(mean active "
                         "inputs)); small values keep rarely seen inputs from adding noise")
    ap.add_argument("--b1-init", type=float, default=0.5,
                    help="initial B1 (0.5 starts every unit inside the clipped ReLU's slope)")
    ap.add_argument("--weight-decay", type=float, default=0.0,
                    help="decoupled weight decay (AdamW) per step, times the learning rate: "
                         "pulls weights of inputs that are rarely seen towards zero")
    ap.add_argument("--mirror", type=int, default=0, metavar="FILES",
                    help="with the board's number of files: mirror each training position "
                         "left to right with probability 1/2 (for games whose rules are "
                         "symmetric under that mirror, castling rights not being inputs, or "
                         "under a half turn with colours swapped: see README)")
    ap.add_argument("--king-buckets", default=None, metavar="MAP",
                    help="king buckets (a version-3 net): a preset (" + ", ".join(KING_PRESETS)
                         + ") or N comma-separated bucket numbers, one per square s' = "
                         "rank*files + file of the view's own frame (rank 0 its back rank)")
    ap.add_argument("--royal-type", type=int, default=None, metavar="R",
                    help="with --king-buckets: the piece type whose square picks a view's "
                         "bucket (default T - 1; chess's king is type 5)")
    ap.add_argument("--val-share", type=float, default=0.02,
                    help="share of positions held out for the validation loss")
    ap.add_argument("--val-from", choices=("random", "tail"), default="random",
                    help="random: validation positions drawn at random (positions of one game "
                         "land on both sides); tail: the last positions of the last file, "
                         "whole games the training never sees")
    ap.add_argument("--loss-csv", default=None,
                    help="CSV of epoch,train_loss,val_loss,seconds (appended to on --resume)")
    ap.add_argument("--threads", type=int, default=1,
                    help="CPU devices (threads) the batch is split over")
    ap.add_argument("--checkpoint", default=None,
                    help="checkpoint to write each epoch (default: OUT without .nnue + .ckpt.npz)")
    ap.add_argument("--resume", default=None, help="checkpoint to continue from")
    ap.add_argument("--init-net", default=None, metavar="NNUE",
                    help="start from the weights of this net file (fine-tuning on new data); "
                         "its T and N must match and its H be at most --hidden (a narrower "
                         "net is widened: the new units get fresh input weights and zero "
                         "output weights, so the run starts from the same function); Adam "
                         "starts from zero moments")
    ap.add_argument("--init-types", default=None, metavar="MAP",
                    help="with --init-net of another game: per type of this run, the init "
                         "net's type whose input rows it starts from (chess into the "
                         "chancellor games: 0,1,2,3,4,4,5; retype.py)")
    ap.add_argument("--match-scale", default=None, metavar="NNUE",
                    help="write the net with the output scale (centipawns per unit of y, a "
                         "version-4 field) that brings its evaluation to this net's scale "
                         "(scale.py's slope over up to 65,536 validation positions); the "
                         "weights are written as trained. Search scores run larger than the "
                         "static evaluation, so a fine-tune on them grows the scale round by "
                         "round")
    ap.add_argument("--stop-after", type=int, default=None,
                    help="end after this epoch (the schedule still follows --epochs); "
                         "continue later with --resume")
    ap.add_argument("--progress", type=float, default=60.0,
                    help="seconds between progress lines inside an epoch (0: none)")
    args = ap.parse_args(argv)
    if args.resume and args.init_net:
        ap.error("--resume and --init-net exclude each other")
    if args.init_types and not args.init_net:
        ap.error("--init-types goes with --init-net")
    if args.threads < 1:
        ap.error("--threads must be at least 1")
    if args.epochs < 1 or args.batch < 1 or args.lr <= 0:
        ap.error("--epochs, --batch and --lr must be positive")
    if not 0.0 <= args.lam <= 1.0:
        ap.error("--lambda must be in [0, 1]")
    if not 0.0 <= args.val_share < 1.0:
        ap.error("--val-share must be in [0, 1)")
    if args.mirror < 0 or (args.mirror and args.squares % args.mirror):
        ap.error("--mirror FILES must divide --squares")
    if args.weight_decay < 0:
        ap.error("--weight-decay must not be negative")
    if not 1 <= args.output_buckets <= 16:
        ap.error("--output-buckets must be from 1 to 16")
    if args.bucket_divisor < 1:
        ap.error("--bucket-divisor must be at least 1")
    if args.checkpoint is None:
        base = args.out[:-5] if args.out.endswith(".nnue") else args.out
        args.checkpoint = base + ".ckpt.npz"
    args.king_map = None
    if args.king_buckets is not None:
        if args.royal_type is None:
            args.royal_type = args.types - 1
        if not 0 <= args.royal_type < args.types:
            ap.error(f"--royal-type must be below --types ({args.types})")
        try:
            args.king_map = parse_king_map(args.king_buckets, args.squares, args.mirror)
        except ValueError as e:
            ap.error(f"--king-buckets: {e}")
    elif args.royal_type is not None:
        ap.error("--royal-type goes with --king-buckets")
    return args


def chess8(file, rank):
    """The chess8 preset's bucket of a square (8x8, the viewer's frame): on the back rank
    files a-b 0, c-d 1, e-f 2, g-h 3; on the second rank a-d 4, e-h 5; further up a-d 6,
    e-h 7."""
    if rank == 0:
        return file // 2
    return (4 if rank == 1 else 6) + file // 4


KING_PRESETS = {"chess8": (8, 8, chess8)}  # name: (files, ranks, bucket of (file, rank))


def parse_king_map(spec, N, mirror):
    """The N bucket numbers of --king-buckets (a preset name or a list); a preset's board
    must have N squares, and its files be --mirror's when that is given."""
    if spec in KING_PRESETS:
        files, ranks, bucket = KING_PRESETS[spec]
        if files * ranks != N:
            raise ValueError(f"{spec} is for {files}x{ranks} boards, not N = {N}")
        if mirror and mirror != files:
            raise ValueError(f"{spec} is for boards of {files} files, --mirror says {mirror}")
        return [bucket(s % files, s // files) for s in range(N)]
    try:
        buckets = [int(x) for x in spec.split(",")]
    except ValueError:
        raise ValueError(f"{spec!r} is neither a preset ({', '.join(KING_PRESETS)}) nor "
                         f"a list of numbers")
    if len(buckets) != N:
        raise ValueError(f"{len(buckets)} numbers, N = {N} wanted")
    if min(buckets) < 0 or max(buckets) >= 64:
        raise ValueError("bucket numbers from 0 to 63")
    if max(buckets) == 0:
        raise ValueError("one bucket only: leave the option out")
    return buckets


args = parse_args()

# The thread count must be fixed before JAX starts: one single-threaded CPU device per
# thread, and the batch split over the devices.
# Our flags go first: XLA stops reading XLA_FLAGS at the first word that is not a
# --flag (such as a bare "intra_op_parallelism_threads=1").
_flags = f"--xla_force_host_platform_device_count={args.threads}"
_user = os.environ.get("XLA_FLAGS", "")
if "xla_cpu_multi_thread_eigen" not in _user:
    _flags += " --xla_cpu_multi_thread_eigen=false"
_flags += " " + _user
os.environ["XLA_FLAGS"] = _flags.strip()
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_v, "1")
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import numpy as np  # noqa: E402
import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

import nnuefmt  # noqa: E402
import retype  # noqa: E402
import scale  # noqa: E402
from nnuefmt import K_HAND, WEIGHT_CLIP  # noqa: E402

PARAM_NAMES = ("W1", "B1", "W2", "B2")


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- model

def gathered_sum(table, idx, acc0):
    """acc0 plus, per row of idx ((rows, width) indices), the sum of the table rows it
    names. Summed one input slot at a time: memory stays (rows, H), and the backward pass
    is one scatter-add of (rows, H) per slot."""
    def add_slot(acc, col):
        return acc + jnp.take(table, col, axis=0, mode="clip"), None

    acc, _ = jax.lax.scan(add_slot, acc0, idx.T, unroll=4)
    return acc


def forward(params, us, them, bucket, screlu, kings=None):
    """y for each row: us/them are (b, width) input indices, F meaning "no input"; bucket
    is each row's output bucket (W2 of shape (O, 2H) and B2 (O,); with one bucket W2 is
    (2H,) and B2 a scalar, as before buckets existed). With king buckets, kings is (KB, F),
    W1 the factoriser's ((1 + KB)*F rows) and us/them index the per-bucket table of its
    sums (KingBuckets.table_rows), KB*F meaning "no input"."""
    W1 = params["W1"]
    H = W1.shape[1]
    if kings is not None:
        KB, F = kings
        W1 = (W1[F:].reshape(KB, F, H) + W1[:F]).reshape(KB * F, H)
    table = jnp.concatenate([W1, jnp.zeros((1, H), W1.dtype)])  # the padding row is zero
    idx = jnp.concatenate([us, them], axis=0)  # (2b, width)
    acc0 = jnp.broadcast_to(params["B1"], (idx.shape[0], H))
    acc = gathered_sum(table, idx, acc0)
    act = jnp.clip(acc, 0.0, 1.0)
    if screlu:
        act = act * act
    b = us.shape[0]
    W2 = params["W2"]
    if W2.ndim == 1:
        return params["B2"] + act[:b] @ W2[:H] + act[b:] @ W2[H:]
    out = act[:b] @ W2[:, :H].T + act[b:] @ W2[:, H:].T + params["B2"]  # (b, O)
    return jnp.take_along_axis(out, bucket[:, None], axis=1)[:, 0]


def sse(params, us, them, bucket, target, weight, screlu, kings=None):
    """The weighted sum of squared errors of sigmoid(y) against the targets."""
    d = jax.nn.sigmoid(forward(params, us, them, bucket, screlu, kings)) - target
    return jnp.sum(weight * d * d)


def make_functions(adam, weight_decay, screlu, kings=None):
    """The pmapped training step and validation sum; kings is (KB, F) with king buckets."""
    def train_step(params, opt_state, us, them, bucket, target, weight, lr):
        loss, grads = jax.value_and_grad(sse)(params, us, them, bucket, target, weight,
                                              screlu, kings)
        grads = jax.lax.psum(grads, "dev")
        loss = jax.lax.psum(loss, "dev")
        total = jnp.maximum(jax.lax.psum(jnp.sum(weight), "dev"), 1.0)
        grads = jax.tree_util.tree_map(lambda g: g / total, grads)
        updates, opt_state = adam.update(grads, opt_state, params)
        params = jax.tree_util.tree_map(
            lambda p, u: jnp.clip(p - lr * (u + weight_decay * p), -WEIGHT_CLIP, WEIGHT_CLIP),
            params, updates)
        return params, opt_state, loss

    def eval_step(params, us, them, bucket, target, weight):
        return jax.lax.psum(sse(params, us, them, bucket, target, weight, screlu, kings),
                            "dev")

    train = jax.pmap(train_step, axis_name="dev", in_axes=(0, 0, 0, 0, 0, 0, 0, None),
                     donate_argnums=(0, 1))
    evaluate = jax.pmap(eval_step, axis_name="dev")
    return train, evaluate


def output_shapes(H, O):
    """The shapes of W2 and B2 for O buckets (one bucket: the shapes of before buckets)."""
    return ((2 * H,), ()) if O == 1 else ((O, 2 * H), (O,))


def init_params(rng, F, H, mean_n, w1_std, b1, O=1):
    """Initial weights; w1_std 0 means 1/sqrt(mean active inputs)."""
    s1 = w1_std or 1.0 / math.sqrt(max(mean_n, 1.0))
    s2 = 1.0 / math.sqrt(2 * H)
    w2_shape, b2_shape = output_shapes(H, O)
    return {
        "W1": rng.normal(0.0, s1, size=(F, H)).clip(-WEIGHT_CLIP, WEIGHT_CLIP).astype(np.float32),
        "B1": np.full((H,), b1, np.float32),
        "W2": rng.uniform(-s2, s2, size=w2_shape).astype(np.float32),
        "B2": np.zeros(b2_shape, np.float32),
    }


class KingBuckets:
    """A run's king buckets (royal type R, KB buckets, map M of N squares) and their
    factoriser. The float W1 has (1 + KB)*F rows: rows [0, F) are shared by every bucket,
    rows [(1 + k)*F, (2 + k)*F) are bucket k's own, and a view in bucket k weighs input i
    with the sum of shared row i and own row (1 + k)*F + i. The model forms the per-bucket
    table of those sums ((KB*F, H), as in the net file) at each step, so a row's gradient
    reaches both parts, as if each input were doubled into a shared one and its bucket's."""

    def __init__(self, royal, king_map, F, N):
        self.R, self.N, self.F = royal, N, F
        self.M = np.asarray(king_map, np.int64)
        self.KB = int(self.M.max()) + 1
        self.rows = (1 + self.KB) * F

    def table_rows(self, view):
        """(rows, width) inputs padded with F -> their rows of the per-bucket table: input
        i of a row in king bucket k is row k*F + i; padding becomes row KB*F."""
        k = nnuefmt.king_buckets(view, self.R, self.N, self.M)
        out = np.where(view < self.F, view + (k * self.F)[:, None], self.KB * self.F)
        return out.astype(np.int32)

    def factorise(self, W1):
        """The factorised W1 of a net's W1: a plain one (F rows) becomes the shared rows,
        its own rows zero; a per-bucket one (KB*F rows) the own rows, its shared rows zero.
        Either way the function is the net's."""
        F, H = self.F, W1.shape[1]
        if W1.shape[0] == F:
            return np.concatenate([W1, np.zeros((self.KB * F, H), W1.dtype)])
        return np.concatenate([np.zeros((F, H), W1.dtype), W1])

    def effective(self, W1):
        """The per-bucket W1 ((KB*F, H)) a factorised one stands for: shared plus own,
        clipped to the weight range."""
        F, H = self.F, W1.shape[1]
        own = W1[F:].reshape(self.KB, F, H)
        return np.clip(W1[:F] + own, -WEIGHT_CLIP, WEIGHT_CLIP).reshape(self.KB * F, H)

    def meta(self):
        """The checkpoint's record of the buckets."""
        return {"KB": self.KB, "R": self.R, "king_map": ",".join(map(str, self.M))}


# ---------------------------------------------------------------- checkpoints

def save_checkpoint(path, params, opt_state, epoch, meta):
    leaves = jax.tree_util.tree_leaves(opt_state)
    arrays = {k: np.asarray(params[k]) for k in PARAM_NAMES}
    for i, leaf in enumerate(leaves):
        arrays[f"opt_{i}"] = np.asarray(leaf)
    arrays["opt_count"] = np.array(len(leaves))
    arrays["epoch"] = np.array(epoch)
    for k, v in meta.items():
        arrays["meta_" + k] = np.array(v)
    tmp = path + ".tmp.npz"
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


def checkpoint_kings(path, kings):
    """Exits unless the checkpoint's king buckets (none in checkpoints from before them)
    are the run's."""
    with np.load(path) as z:
        old = {k[5:]: z[k].item() for k in z.files if k.startswith("meta_")}
    differ = kings_mismatch(old, kings.meta() if kings else {})
    if differ:
        sys.exit(f"{path}: {differ}")


def kings_mismatch(theirs, ours):
    """How two king-bucket records (KB, R, king_map as in KingBuckets.meta; KB 1 or no
    record: none) differ, in words; None when they are the same."""
    count = lambda m: int(m.get("KB", 1))
    words = lambda kb: f"{kb} king buckets" if kb > 1 else "no king buckets"
    if count(theirs) != count(ours):
        return f"{words(count(theirs))}, this run has {words(count(ours))}"
    if count(ours) == 1:
        return None
    if int(theirs["R"]) != int(ours["R"]):
        return f"royal type R = {theirs['R']}, this run has {ours['R']}"
    a, b = str(theirs["king_map"]).split(","), str(ours["king_map"]).split(",")
    if a != b:
        s = next(i for i, (x, y) in enumerate(zip(a, b)) if x != y)
        return f"another king bucket map (square {s}: bucket {a[s]}, this run's {b[s]})"
    return None


def load_checkpoint(path, adam, F, H, O=1, rows=None):
    """Weights, Adam state, epochs done and meta of a checkpoint, its shapes checked
    (W1 has `rows` rows, F without king buckets)."""
    rows = rows or F
    with np.load(path) as z:
        params = {k: z[k].astype(np.float32) for k in PARAM_NAMES}
        if params["W1"].shape != (rows, H):
            sys.exit(f"{path}: W1 is {params['W1'].shape}, this run wants ({rows}, {H})")
        if params["W2"].shape != output_shapes(H, O)[0]:
            sys.exit(f"{path}: W2 is {params['W2'].shape}, this run has {O} output bucket(s)")
        epoch = int(z["epoch"])
        opt_state = adam.init(params)
        leaves, treedef = jax.tree_util.tree_flatten(opt_state)
        if "opt_count" in z and int(z["opt_count"]) == len(leaves) and all(
                z[f"opt_{i}"].shape == np.shape(l) for i, l in enumerate(leaves)):
            opt_state = jax.tree_util.tree_unflatten(
                treedef, [z[f"opt_{i}"].astype(np.asarray(l).dtype) for i, l in enumerate(leaves)])
        else:
            log(f"{path}: no usable optimiser state, Adam restarts from zero moments")
        meta = {k[5:]: z[k].item() for k in z.files if k.startswith("meta_")}
    return params, opt_state, epoch, meta


def params_from_net(path, T, N, H, O=1, activation=nnuefmt.CRELU, kings=None,
                    type_map=None):
    """The float weights a quantised net file stands for (its integers over the scales).
    A net of one bucket fills every one of the O buckets with its output layer. W1 is the
    file's: (KB*F, H) for a version-3 net, whose king buckets must be the run's; with
    `type_map` (retype.py) its rows are carried into this run's T types."""
    try:
        net = nnuefmt.read_net(path)
        if type_map is not None:
            type_map = retype.parse_type_map(type_map, T, net.T)
            if net.KB > 1 and kings:
                retype.mapped_royal(type_map, net.R, kings.R)
                net.R = kings.R
    except (nnuefmt.FormatError, OSError, retype.TypeMapError) as e:
        sys.exit(f"error: {e}")
    if type_map is None and net.T != T or net.N != N or net.H > H:
        sys.exit(f"{path}: T = {net.T}, N = {net.N}, H = {net.H}; this run has "
                 f"T = {T}, N = {N}, H = {H} (H may grow, not shrink)")
    if net.material is not None:
        log(f"{path}: its material-scale table is not carried over (the trainer writes the "
            f"output as trained; calibrate.py --write adds a table)")
    if net.KB > 1:
        theirs = {"KB": net.KB, "R": net.R, "king_map": ",".join(map(str, net.M))}
        differ = kings_mismatch(theirs, kings.meta() if kings else {})
        if differ:
            sys.exit(f"{path}: {differ} (a version-3 net starts only a run of the same "
                     f"royal type and king bucket map)")
    if net.O not in (1, O):
        sys.exit(f"{path}: {net.O} output buckets; this run has {O} (only a net of one "
                 f"bucket can start a run of more)")
    if net.A != activation:
        log(f"note: {path} has another activation; the run starts from its weights, "
            f"not from its function")
    W1, B1, W2, B2 = nnuefmt.dequantise(net, np.float32)
    if type_map is not None:
        W1 = retype.retype_rows(W1, type_map, net.T, N, net.K)
    if O == 1:
        W2, B2 = W2[0], B2[0]
    elif net.O == 1:
        W2, B2 = np.repeat(W2, O, axis=0), np.repeat(B2, O)
    return dict(zip(PARAM_NAMES, (W1, B1, W2, np.asarray(B2, np.float32))))


def widen(params, H, rng, mean_n, w1_std, b1, F):
    """Grow a net's hidden layer to H units without changing what it computes: the new
    units get input weights drawn as for a fresh net and output weights of zero (in both
    halves of W2, the side to move's and the other's), so training starts where the
    narrower net stands and the output weights of the new units grow from the gradient.
    With a factorised W1 the fresh weights go to the F shared rows, the own rows get 0."""
    old = params["W1"].shape[1]
    if old == H:
        return params
    extra = H - old
    fresh = init_params(rng, F, extra, mean_n, w1_std, b1)
    rest = params["W1"].shape[0] - F
    fresh["W1"] = np.concatenate([fresh["W1"], np.zeros((rest, extra), np.float32)])
    W2 = params["W2"]
    zeros = np.zeros(W2.shape[:-1] + (extra,), np.float32)
    W2 = np.concatenate([W2[..., :old], zeros, W2[..., old:], zeros], axis=-1)
    return {
        "W1": np.concatenate([params["W1"], fresh["W1"]], axis=1),
        "B1": np.concatenate([params["B1"], fresh["B1"]]),
        "W2": W2,
        "B2": params["B2"],
    }


# ---------------------------------------------------------------- training

def learning_rate(args, step, steps_per_epoch):
    total = args.epochs * steps_per_epoch
    if args.schedule == "cosine":
        t = min(step / max(total, 1), 1.0)
        lo = args.lr * args.lr_drop
        return lo + 0.5 * (args.lr - lo) * (1.0 + math.cos(math.pi * t))
    drop_epoch = args.epochs - int(round(args.drop_share * args.epochs))
    return args.lr * (args.lr_drop if step // steps_per_epoch >= drop_epoch else 1.0)


class Batcher:
    """Builds padded device batches from the memory-mapped feature files."""

    def __init__(self, data, targets, width, batch, devices, mirror_map=None, buckets=None,
                 kings=None):
        self.data, self.targets, self.width = data, targets, width
        self.kings = kings
        self.buckets = buckets if buckets is not None else np.zeros(data.count, np.int32)
        self.devices = devices
        self.per_dev = -(-batch // devices)
        self.size = self.per_dev * devices
        self.mirror_map = mirror_map

    def make(self, idx, rng=None):
        """(us, them, bucket, target, weight), each with a leading device axis; rows past
        len(idx) are padding with weight 0. With an rng and a mirror map, about half of the rows are
        mirrored left to right. With king buckets the inputs are rows of the per-bucket
        table, each view's bucket taken after the mirror."""
        m = len(idx)
        us = np.full((self.size, self.width), self.data.F, dtype=np.int32)
        them = np.full((self.size, self.width), self.data.F, dtype=np.int32)
        bucket = np.zeros(self.size, np.int32)
        target = np.zeros(self.size, np.float32)
        weight = np.zeros(self.size, np.float32)
        us[:m], them[:m] = self.data.gather(idx, self.width)
        bucket[:m] = self.buckets[idx]
        if rng is not None and self.mirror_map is not None:
            flip = np.flatnonzero(rng.random(m) < 0.5)
            us[flip] = self.mirror_map[us[flip]]
            them[flip] = self.mirror_map[them[flip]]
        if self.kings is not None:
            us, them = self.kings.table_rows(us), self.kings.table_rows(them)
        target[:m] = self.targets[idx]
        weight[:m] = 1.0
        d, b = self.devices, self.per_dev
        return (us.reshape(d, b, -1), them.reshape(d, b, -1), bucket.reshape(d, b),
                target.reshape(d, b), weight.reshape(d, b))


def mirror_map(T, N, files):
    """Input index -> the same input with its square mirrored left to right (hand inputs and
    the padding index F map to themselves)."""
    F = nnuefmt.num_inputs(T, N)
    out = np.arange(F + 1, dtype=np.int32)
    board = np.arange(2 * T * N)
    sq = board % N
    mirrored = (sq // files) * files + (files - 1 - sq % files)
    out[board] = (board - sq + mirrored).astype(np.int32)
    return out


def validation_loss(evaluate, params, batcher, val_idx):
    if len(val_idx) == 0:
        return float("nan")
    total = []
    for a in range(0, len(val_idx), batcher.size):
        total.append(evaluate(params, *batcher.make(val_idx[a:a + batcher.size])))
    return float(sum(float(t[0]) for t in total)) / len(val_idx)


def activation_code(args):
    return nnuefmt.ACTIVATIONS[args.activation]


def write_net(path, params, args, kings=None, match=None):
    """The quantised net: version 3 with king buckets (W1 the factoriser's sums), else
    version 1 with one output bucket and crelu, else version 2. With `match` (a reference
    net, the feature set and the positions to compare on) the output scale S is set so that
    the net evaluates on the reference's scale (a version-4 file; the weights as trained)."""
    host = {k: np.asarray(v) for k, v in params.items()}
    W1, royal, king_map = host["W1"], None, None
    if kings is not None:
        W1, royal, king_map = kings.effective(W1), kings.R, kings.M

    net = nnuefmt.quantise(args.games, args.types, args.squares, K_HAND,
                           W1, host["B1"], host["W2"], host["B2"],
                           activation_code(args), args.bucket_divisor, royal, king_map)
    if match is not None:
        ref, data, positions = match
        try:
            slope, corr, used = scale.compare(scale.evaluations(net, data, positions),
                                              scale.evaluations(ref, data, positions), 1000)
        except ValueError as e:
            sys.exit(f"--match-scale: {e}")
        factor = 1.0 / slope if slope != 0.0 else math.inf
        try:
            new_scale = nnuefmt.rescaled(net.S, factor)
        except ValueError as e:
            sys.exit(f"--match-scale: slope {slope:.3f}: {e}")
        log(f"scale: slope {slope:.3f} on the reference (correlation {corr:.4f}, {used} "
            f"positions); output scale {net.S} -> {new_scale} (times {factor:.4f})")
        net.S = new_scale
    if net.A == nnuefmt.SCRELU:
        for b, v in net.screlu_overflows():
            log(f"warning: bucket {b}, view {v}: sum of |W2| above "
                f"{nnuefmt.SCRELU_VIEW_W2_SUM}, the engine's 32-bit sum can wrap")
    return nnuefmt.write_net(path, net)


def log_kings(kings, data, width, name):
    """Logs the king buckets: squares per bucket, and the share of side-to-move views in
    each over up to 65,536 positions (before any mirroring)."""
    sample = np.arange(min(data.count, 1 << 16))
    us, _ = data.gather(sample, width)
    views = np.bincount(nnuefmt.king_buckets(us, kings.R, kings.N, kings.M),
                        minlength=kings.KB) / len(sample)
    squares = np.bincount(kings.M, minlength=kings.KB)
    log(f"king buckets {name}: KB = {kings.KB}, royal type {kings.R}; bucket: squares, "
        f"share of views: " + " ".join(f"{k}:{squares[k]},{views[k]:.3f}"
                                      for k in range(kings.KB)))
    log(f"factoriser: W1 of {kings.rows} rows (F shared, then F per bucket)")


def main():
    try:
        args.games = nnuefmt.check_games(args.games)
        nnuefmt.check_hidden(args.hidden)
    except ValueError as e:
        sys.exit(str(e))
    t_load = time.time()
    try:
        paths = nnuefmt.feature_files(args.data, args.games.split(",")[0], args.sako, args.feature_dir,
                                      log)
        data = nnuefmt.FeatureSet(paths)
    except (nnuefmt.FormatError, OSError) as e:
        sys.exit(f"error: {e}")
    T, N, H = args.types, args.squares, args.hidden
    F = nnuefmt.num_inputs(T, N)
    if data.F != F:
        sys.exit(f"the feature files have F = {data.F}, but T = {T}, N = {N} give "
                 f"2*T*(N+{K_HAND}) = {F}")
    if data.count == 0:
        sys.exit("the feature files hold no positions")
    width = max(data.max_n, 1)
    targets = data.targets(args.lam)
    log(f"data: {data.count} positions in {len(data.files)} file(s), F = {F}, "
        f"inputs per view mean {data.n.mean():.1f} max {data.max_n}, "
        f"mean target {targets.mean():.3f} (loaded in {time.time() - t_load:.1f} s)")
    if data.max_n >= 64:
        log(f"warning: up to {data.max_n} active inputs: with every weight at the clip "
            f"(505 after quantisation) an i16 accumulator of {data.max_n} rows plus the "
            f"bias could pass 32767")

    rng = np.random.default_rng(args.seed)
    perm = rng.permutation(data.count)
    n_val = int(round(args.val_share * data.count))
    if args.val_share > 0 and n_val == 0:
        n_val = 1
    if n_val >= data.count:
        sys.exit("no positions left for training")
    if args.val_from == "tail":
        val_idx = np.arange(data.count - n_val, data.count)
        train_idx = perm[perm < data.count - n_val]
    else:
        val_idx = np.sort(perm[:n_val])
        train_idx = perm[n_val:]

    devices = jax.local_devices()[:args.threads]
    if len(devices) < args.threads:
        sys.exit(f"JAX made {len(devices)} CPU devices, not {args.threads}")
    mirrored = mirror_map(T, N, args.mirror) if args.mirror else None
    O, D = args.output_buckets, args.bucket_divisor
    buckets = np.minimum(data.n.astype(np.int64) // D, O - 1).astype(np.int32)
    if O > 1:
        shares = np.bincount(buckets, minlength=O) / data.count
        log(f"output buckets (n // {D}, at most {O - 1}), share of positions: "
            + " ".join(f"{b}:{x:.3f}" for b, x in enumerate(shares)))
    kings = None
    if args.king_map is not None:
        kings = KingBuckets(args.royal_type, args.king_map, F, N)
        log_kings(kings, data, width, args.king_buckets)
    batcher = Batcher(data, targets, width, args.batch, len(devices), mirrored, buckets, kings)
    steps_per_epoch = -(-len(train_idx) // batcher.size)
    log(f"split: {len(train_idx)} train, {n_val} validation; batch {batcher.size} over "
        f"{len(devices)} device(s), {steps_per_epoch} steps per epoch; H = {H}, "
        f"{args.activation}, {args.output_buckets} output bucket(s)")

    adam = optax.scale_by_adam()
    screlu = args.activation == "screlu"
    train_step, eval_step = make_functions(adam, np.float32(args.weight_decay), screlu,
                                           None if kings is None else (kings.KB, F))
    meta = {"games": args.games, "T": T, "N": N, "K": K_HAND, "H": H, "F": F,
            "seed": args.seed, "lam": args.lam, "mirror": args.mirror,
            "weight_decay": args.weight_decay, "O": O, "D": D,
            "activation": activation_code(args), "KB": 1}
    if kings is not None:
        meta.update(kings.meta())
    rows = kings.rows if kings else F
    start_epoch = 0
    if args.resume:
        checkpoint_kings(args.resume, kings)
        params, opt_state, start_epoch, old = load_checkpoint(args.resume, adam, F, H, O, rows)
        old.setdefault("O", 1)  # checkpoints from before buckets
        old.setdefault("activation", nnuefmt.CRELU)
        for k in ("T", "N", "K", "H", "O", "D", "activation"):
            if k in old and int(old[k]) != meta[k] and not (k == "D" and O == 1):
                sys.exit(f"{args.resume}: {k} = {old[k]}, this run has {meta[k]}")
        log(f"resumed from {args.resume} after epoch {start_epoch}")
    elif args.init_net:
        params = params_from_net(args.init_net, T, N, H, O, activation_code(args), kings,
                                 args.init_types)
        narrower = params["W1"].shape[1]
        if kings is not None:
            params["W1"] = kings.factorise(params["W1"])
        params = widen(params, H, rng, float(data.n.mean()), args.w1_std, args.b1_init, F)
        opt_state = adam.init(params)
        log(f"started from the weights of {args.init_net}"
            + (f" ({narrower} hidden units widened to {H})" if narrower != H else ""))
    else:
        params = init_params(rng, F, H, float(data.n.mean()), args.w1_std, args.b1_init, O)
        if kings is not None:
            params["W1"] = kings.factorise(params["W1"])
        opt_state = adam.init(params)

    params = jax.device_put_replicated(params, devices)
    opt_state = jax.device_put_replicated(opt_state, devices)

    match = None
    if args.match_scale:
        try:
            ref = nnuefmt.read_net(args.match_scale)
        except (nnuefmt.FormatError, OSError) as e:
            sys.exit(f"error: {e}")
        if ref.F != F:
            sys.exit(f"{args.match_scale}: F = {ref.F}, this run has F = {F}")
        sample = val_idx if len(val_idx) else np.sort(train_idx)
        match = (ref, data, sample[:1 << 16])

    csv_file = None
    if args.loss_csv:
        append = bool(args.resume) and os.path.exists(args.loss_csv)
        csv_file = open(args.loss_csv, "a" if append else "w", newline="")
        writer = csv.writer(csv_file)
        if not append:
            writer.writerow(["epoch", "train_loss", "val_loss", "seconds"])
            csv_file.flush()

    t0 = time.time()
    val0 = validation_loss(eval_step, params, batcher, val_idx)
    log(f"epoch {start_epoch}: val loss {val0:.6f} ({time.time() - t0:.1f} s, includes compiling)")

    end_epoch = args.epochs if args.stop_after is None else min(args.epochs, args.stop_after)
    for epoch in range(start_epoch, end_epoch):
        t_epoch = time.time()
        order = train_idx[np.random.default_rng([args.seed, epoch]).permutation(len(train_idx))]
        losses, pending = [], []
        last_print = time.time()
        flip_rng = np.random.default_rng([args.seed, epoch, 1]) if args.mirror else None
        for s in range(steps_per_epoch):
            step = epoch * steps_per_epoch + s
            lr = np.float32(learning_rate(args, step, steps_per_epoch))
            batch = batcher.make(order[s * batcher.size:(s + 1) * batcher.size], flip_rng)
            params, opt_state, loss = train_step(params, opt_state, *batch, lr)
            losses.append(loss)
            # Keep at most two steps queued so batches do not pile up in memory.
            pending.append(loss)
            if len(pending) > 2:
                pending.pop(0).block_until_ready()
            if args.progress > 0 and time.time() - last_print >= args.progress:
                done = min((s + 1) * batcher.size, len(train_idx))
                part = sum(float(l[0]) for l in losses) / done
                log(f"  epoch {epoch + 1}: {done}/{len(train_idx)} positions, "
                    f"train loss {part:.6f}, lr {lr:.2e}, {time.time() - t_epoch:.0f} s")
                last_print = time.time()
        train_loss = sum(float(l[0]) for l in losses) / len(train_idx)
        val_loss = validation_loss(eval_step, params, batcher, val_idx)
        seconds = time.time() - t_epoch
        host_params = jax.tree_util.tree_map(lambda x: np.asarray(x[0]), params)
        host_opt = jax.tree_util.tree_map(lambda x: np.asarray(x[0]), opt_state)
        save_checkpoint(args.checkpoint, host_params, host_opt, epoch + 1, meta)
        write_net(args.out, host_params, args, kings, match)
        log(f"epoch {epoch + 1}: train loss {train_loss:.6f}, val loss {val_loss:.6f}, "
            f"lr {lr:.2e}, {seconds:.1f} s, {len(train_idx) / seconds:.0f} pos/s")
        if csv_file:
            writer.writerow([epoch + 1, f"{train_loss:.6f}", f"{val_loss:.6f}", f"{seconds:.1f}"])
            csv_file.flush()

    if start_epoch >= end_epoch:
        host_params = jax.tree_util.tree_map(lambda x: np.asarray(x[0]), params)
        write_net(args.out, host_params, args, kings, match)
    size = os.path.getsize(args.out)
    log(f"wrote {args.out} ({size} bytes) and {args.checkpoint}")
    if csv_file:
        csv_file.close()


if __name__ == "__main__":
    main()
