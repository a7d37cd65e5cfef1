"""The framework measurement of docs/training-framework.md: the NoGo network's training step
(batch 256, Adam, policy cross-entropy + value MSE) and its batch-1 forward pass, on random
inputs, in PyTorch or JAX, in positions per second.

    python src/training/nogo/fwbench.py torch --channels 32 --blocks 6 --threads 2
    python src/training/nogo/fwbench.py jax   --channels 32 --blocks 6 --threads 2

Run each in the virtualenv that has the framework. Not used by the trainer.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("framework", choices=["torch", "jax"])
    ap.add_argument("--channels", type=int, default=32)
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--hidden", type=int, default=32)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seconds", type=float, default=20.0, help="time each measurement runs")
    ap.add_argument("--bn", type=int, default=1, help="torch: BatchNorm in training (1) or not")
    a = ap.parse_args()
    if a.framework == "torch":
        bench_torch(a)
    else:
        # XLA's CPU client sizes its thread pool from this flag (set before jax is imported).
        os.environ.setdefault(
            "XLA_FLAGS",
            f"--xla_cpu_multi_thread_eigen=true intra_op_parallelism_threads={a.threads}")
        bench_jax(a)


def timed(step, seconds, per_call):
    step()  # warm-up (and compilation)
    step()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        step()
        n += 1
    dt = time.perf_counter() - t0
    return n * per_call / dt, dt / n


def bench_torch(a):
    import torch

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from model import Net

    torch.set_num_threads(a.threads)
    torch.manual_seed(0)
    net = Net(a.channels, a.blocks, a.hidden, bn=bool(a.bn))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x = (torch.rand(a.batch, 8, 9, 9) < 0.3).float()
    target = torch.softmax(torch.randn(a.batch, 81), dim=1)
    z = torch.randn(a.batch).clamp(-1, 1)

    def train_step():
        logits, v = net(x)
        loss = -(target * torch.log_softmax(logits, dim=1)).sum(1).mean() + ((v - z) ** 2).mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    net.train()
    rate, per = timed(train_step, a.seconds, a.batch)
    print(f"torch {torch.__version__} threads={a.threads} {a.blocks}x{a.channels} bn={a.bn}: "
          f"train {rate:.0f} positions/s ({per * 1e3:.1f} ms a step of {a.batch})")
    net.eval()
    x1 = x[:1].clone()

    def forward1():
        with torch.inference_mode():
            net(x1)

    rate, per = timed(forward1, a.seconds / 2, 1)
    print(f"torch forward batch 1: {rate:.0f} positions/s ({per * 1e6:.0f} us each)")


def bench_jax(a):
    import jax
    import jax.numpy as jnp
    import optax

    c, b, h = a.channels, a.blocks, a.hidden
    key = jax.random.PRNGKey(0)

    def init(key, shape, fan_in):
        return jax.random.normal(key, shape) * (2.0 / fan_in) ** 0.5

    keys = iter(jax.random.split(key, 64))
    params = {"stem": (init(next(keys), (3, 3, 9, c), 81), jnp.zeros(c))}
    params["blocks"] = [
        (init(next(keys), (3, 3, c, c), 9 * c), jnp.zeros(c),
         jnp.zeros((3, 3, c, c)), jnp.zeros(c)) for _ in range(b)
    ]
    params["pconv"] = (init(next(keys), (c, 2), c), jnp.zeros(2))
    params["pfc"] = (init(next(keys), (162, 81), 162), jnp.zeros(81))
    params["vconv"] = (init(next(keys), (c, 1), c), jnp.zeros(1))
    params["vfc1"] = (init(next(keys), (81, h), 81), jnp.zeros(h))
    params["vfc2"] = (init(next(keys), (h, 1), h), jnp.zeros(1))

    def conv(x, w, bias):  # NHWC
        y = jax.lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return y + bias

    def forward(p, planes):
        n = planes.shape[0]
        x = jnp.concatenate([planes, jnp.ones((n, 9, 9, 1))], axis=-1)
        x = jax.nn.relu(conv(x, *p["stem"]))
        for w1, b1, w2, b2 in p["blocks"]:
            hh = jax.nn.relu(conv(x, w1, b1))
            x = jax.nn.relu(x + conv(hh, w2, b2))
        pol = jax.nn.relu(x @ p["pconv"][0] + p["pconv"][1])
        pol = jnp.transpose(pol, (0, 3, 1, 2)).reshape(n, 162)
        logits = pol @ p["pfc"][0] + p["pfc"][1]
        v = jax.nn.relu(x @ p["vconv"][0] + p["vconv"][1]).reshape(n, 81)
        v = jax.nn.relu(v @ p["vfc1"][0] + p["vfc1"][1])
        return logits, jnp.tanh(v @ p["vfc2"][0] + p["vfc2"][1])[:, 0]

    def loss_fn(p, x, target, z):
        logits, v = forward(p, x)
        return (-(target * jax.nn.log_softmax(logits)).sum(1).mean() + ((v - z) ** 2).mean())

    opt = optax.adam(1e-3)
    state = opt.init(params)

    @jax.jit
    def step(p, s, x, target, z):
        loss, g = jax.value_and_grad(loss_fn)(p, x, target, z)
        upd, s = opt.update(g, s, p)
        return optax.apply_updates(p, upd), s, loss

    k1, k2, k3 = jax.random.split(key, 3)
    x = (jax.random.uniform(k1, (a.batch, 9, 9, 8)) < 0.3).astype(jnp.float32)
    target = jax.nn.softmax(jax.random.normal(k2, (a.batch, 81)))
    z = jnp.clip(jax.random.normal(k3, (a.batch,)), -1, 1)
    box = [params, state]

    def train_step():
        p, s, loss = step(box[0], box[1], x, target, z)
        loss.block_until_ready()
        box[0], box[1] = p, s

    rate, per = timed(train_step, a.seconds, a.batch)
    print(f"jax {jax.__version__} threads={a.threads} {b}x{c}: train {rate:.0f} positions/s "
          f"({per * 1e3:.1f} ms a step of {a.batch})")
    fwd = jax.jit(forward)
    x1 = x[:1]

    def forward1():
        fwd(box[0], x1)[0].block_until_ready()

    rate, per = timed(forward1, a.seconds / 2, 1)
    print(f"jax forward batch 1: {rate:.0f} positions/s ({per * 1e6:.0f} us each)")


if __name__ == "__main__":
    main()
