"""The spectrogram network of somniq's learned rules (SpectrogramNet.swift), fitted with JAX
on the CPU. train.py fits one per held-out fold and one on all folds; the trees take its
outputs as inputs.

Why JAX: its CPU wheel from PyPI is 80 MB and needs nothing else (PyTorch's PyPI wheel for
Linux pulls in 3 GB of CUDA libraries), and on the CPU its programs are deterministic: the
same material and seed give the same weights on the same machine.

The network is small on purpose: 2 cores fit it four times in minutes, and somniq runs it
on every window that stands out of the floor (0.6 M multiply-adds, a fraction of a
millisecond). Inputs and layers are exactly what the Swift code computes; `forward` is the
reference the Swift test compares with (rules/network-check.tsv).
"""
import os

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=2")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

# MelBands.swift and SpectrogramNet.swift.
BANDS = 32
HALF = 16                   # rows a window adds (its last 0.5 s)
CONTEXT = 4                 # windows of context: 2 s
STEPS = CONTEXT * HALF
SILENCE = -120.0            # Decibels.silence: the context before a stream's first window
FLOOR_DB = 60.0
AUDIBLE_DB = 8.0            # Cues.audibleDb's lower bound: windows at or below it are not evaluated
# (inputs, outputs, kernel, dilation, pool) per layer.
LAYERS = [(BANDS, 32, 3, 1, 2), (32, 32, 3, 1, 1), (32, 32, 3, 2, 1), (32, 32, 3, 4, 1)]
EPOCHS = 20
BATCH = 256
LEARNING_RATE = 2e-3
MAX_POSITIVE_WEIGHT = 10.0
# Augmentation: a spectral tilt of up to +-TILT_DB across the bands (a microphone's and a
# room's colour), and a band mask and a time mask (SpecAugment) on each example.
TILT_DB = 6.0
MASK_BANDS = 4
MASK_STEPS = 8


def contexts(mel):
    """Per window of one file (mel: windows x HALF x BANDS, in stream order), its 2 s of
    context: windows x STEPS x BANDS, as somniq's Runner holds it."""
    pad = np.full((CONTEXT - 1, HALF, BANDS), SILENCE, np.float32)
    m = np.concatenate([pad, mel.astype(np.float32)])
    idx = np.arange(len(mel))[:, None] + np.arange(CONTEXT)[None, :]
    return m[idx].reshape(len(mel), STEPS, BANDS)


def normalise(ctx):
    """SpectrogramNet.Runner.evaluate's input: relative to the context's loudest level,
    clipped FLOOR_DB below it, scaled to [-1, 1]; bands as channels (B x BANDS x STEPS)."""
    loudest = ctx.max(axis=(1, 2), keepdims=True)
    x = np.maximum(ctx - loudest, -FLOOR_DB) / (FLOOR_DB / 2) + 1
    return np.ascontiguousarray(x.transpose(0, 2, 1), dtype=np.float32)


def window_steps():
    steps = 2 * HALF
    for layer in LAYERS:
        steps //= layer[4]
    return steps


def init(key, classes):
    params = {"convs": [], "head": None}
    for i, o, k, _, _ in LAYERS:
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (o, i, k), jnp.float32) * np.sqrt(2.0 / (i * k))
        params["convs"].append((w, jnp.zeros((o,), jnp.float32)))
    c = LAYERS[-1][1]
    key, sub = jax.random.split(key)
    params["head"] = (jax.random.normal(sub, (classes, 2 * c), jnp.float32) * np.sqrt(1.0 / (2 * c)),
                      jnp.zeros((classes,), jnp.float32))
    return params


def logits(params, x):
    """x: B x BANDS x STEPS, normalised."""
    for (w, b), (_, _, k, d, pool) in zip(params["convs"], LAYERS):
        reach = k // 2 * d
        x = jax.lax.conv_general_dilated(x, w, window_strides=(1,), padding=[(reach, reach)], rhs_dilation=(d,),
                                         dimension_numbers=("NCH", "OIH", "NCH")) + b[None, :, None]
        x = jnp.maximum(x, 0)
        if pool > 1:
            x = x.reshape(x.shape[0], x.shape[1], x.shape[2] // pool, pool).max(axis=-1)
    own = x[:, :, -window_steps():]
    feat = jnp.concatenate([own.mean(axis=-1), own.max(axis=-1)], axis=1)
    w, b = params["head"]
    return feat @ w.T + b


def forward(params, x, batch=4096):
    """The outputs (logistic) for normalised inputs, in batches."""
    f = jax.jit(lambda p, v: jax.nn.sigmoid(logits(p, v)))
    out = [np.asarray(f(params, jnp.asarray(x[i:i + batch]))) for i in range(0, len(x), batch)]
    return np.concatenate(out) if out else np.zeros((0, params["head"][1].shape[0]), np.float32)


def augment(rng, ctx):
    """Tilt and masks, on the context in dB (before normalising)."""
    n = len(ctx)
    tilt = rng.uniform(-TILT_DB, TILT_DB, n).astype(np.float32)
    ctx = ctx + tilt[:, None, None] * np.linspace(-1, 1, BANDS, dtype=np.float32)[None, None, :]
    x = normalise(ctx)
    for i in range(n):
        b0 = rng.integers(0, BANDS - MASK_BANDS + 1)
        x[i, b0:b0 + rng.integers(0, MASK_BANDS + 1), :] = -1.0
        t0 = rng.integers(0, STEPS - MASK_STEPS + 1)
        x[i, :, t0:t0 + rng.integers(0, MASK_STEPS + 1)] = -1.0
    return x


def fit(ctx, y, seed, log=print):
    """Fits the network on contexts (N x STEPS x BANDS, dB) and labels (N x classes: 1, 0, or -1
    for left out). Adam, cosine-decayed learning rate; each class's positives weighed up to
    MAX_POSITIVE_WEIGHT times (the rare ones would otherwise be never called)."""
    classes = y.shape[1]
    mask = (y >= 0).astype(np.float32)
    pos = ((y == 1) * mask).sum(0)
    neg = ((y == 0) * mask).sum(0)
    pos_weight = np.clip(neg / np.maximum(pos, 1), 1, MAX_POSITIVE_WEIGHT).astype(np.float32)
    params = init(jax.random.PRNGKey(seed), classes)
    moments = jax.tree_util.tree_map(lambda p: (jnp.zeros_like(p), jnp.zeros_like(p)), params)
    steps_per_epoch = len(ctx) // BATCH
    total = EPOCHS * steps_per_epoch

    def loss(p, xb, yb, mb):
        z = logits(p, xb)
        # Binary cross-entropy per class, positives weighed up, left-out windows not counted.
        l = pos_weight * yb * jax.nn.softplus(-z) + (1 - yb) * jax.nn.softplus(z)
        return (l * mb).sum() / jnp.maximum(mb.sum(), 1)

    @jax.jit
    def step(p, m, t, xb, yb, mb):
        value, grads = jax.value_and_grad(loss)(p, xb, yb, mb)
        lr = LEARNING_RATE * 0.5 * (1 + jnp.cos(jnp.pi * t / total))
        b1, b2 = 0.9, 0.999

        def update(param, g, mom):
            m1 = b1 * mom[0] + (1 - b1) * g
            m2 = b2 * mom[1] + (1 - b2) * g * g
            m1h = m1 / (1 - b1 ** (t + 1))
            m2h = m2 / (1 - b2 ** (t + 1))
            return param - lr * m1h / (jnp.sqrt(m2h) + 1e-8), (m1, m2)

        flat_p, tree = jax.tree_util.tree_flatten(p)
        flat_g = jax.tree_util.tree_leaves(grads)
        flat_m = tree.flatten_up_to(m)
        out = [update(a, g, mm) for a, g, mm in zip(flat_p, flat_g, flat_m)]
        return (jax.tree_util.tree_unflatten(tree, [o[0] for o in out]),
                jax.tree_util.tree_unflatten(tree, [o[1] for o in out]), value)

    rng = np.random.default_rng(seed)
    yf = np.maximum(y, 0).astype(np.float32)
    t = 0
    for epoch in range(EPOCHS):
        order = rng.permutation(len(ctx))
        losses = []
        for s in range(steps_per_epoch):
            idx = np.sort(order[s * BATCH:(s + 1) * BATCH])
            xb = augment(rng, ctx[idx])
            params, moments, value = step(params, moments, t, jnp.asarray(xb), jnp.asarray(yf[idx]), jnp.asarray(mask[idx]))
            losses.append(float(value))
            t += 1
        log(f"  network epoch {epoch + 1}/{EPOCHS}: loss {np.mean(losses):.4f}")
    return jax.tree_util.tree_map(np.asarray, params)


def count(params):
    n = sum(w.size + b.size for w, b in params["convs"])
    return n + params["head"][0].size + params["head"][1].size


def multiply_adds(params):
    length, total = STEPS, 0
    for i, o, k, _, pool in LAYERS:
        total += length * o * i * k
        length //= pool
    return total + params["head"][0].size


def lines(params, classes):
    """The network's lines of rules/learned.txt (LearnedRulesText.swift)."""
    def numbers(a):
        return " ".join(str(v) for v in np.asarray(a, np.float32).ravel())
    out = ["network classes=" + ",".join(classes)]
    for (w, b), (i, o, k, d, pool) in zip(params["convs"], LAYERS):
        out.append(f"conv {i} {o} {k} {d} {pool} {numbers(w)} {numbers(b)}")
    out.append(f"head {numbers(params['head'][0])} {numbers(params['head'][1])}")
    return out
