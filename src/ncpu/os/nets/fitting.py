"""The two training loops the learned neurOS parts share: Adam on minibatches,
reproducible from a seed (the caller seeds torch before building the net)."""

import torch


def fit_by_steps(net, x, y, loss_fn, *, seed: int, steps: int, batch: int = 256, lr: float = 3e-3,
                 weight_decay: float = 0.0, log=None, name: str = ""):
    """`steps` minibatches drawn with replacement; a loss line every 500 steps."""
    optimizer = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=weight_decay)
    generator = torch.Generator().manual_seed(seed)
    for step in range(steps):
        rows = torch.randint(0, len(x), (batch,), generator=generator)
        loss = loss_fn(net(x[rows]), y[rows])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if log and (step % 500 == 0 or step == steps - 1):
            log(f"{name} step {step}: loss {loss.item():.4f}")
    return net


def fit_by_epochs(net, x, y, loss_fn, *, seed: int, epochs: int, batch: int, lr: float = 3e-3,
                  log=None, name: str = ""):
    """`epochs` passes over a fresh permutation; the mean loss of each pass."""
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    generator = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        order = torch.randperm(len(x), generator=generator)
        total = 0.0
        for start in range(0, len(x), batch):
            rows = order[start:start + batch]
            loss = loss_fn(net(x[rows]), y[rows])
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            total += loss.item() * len(rows)
        if log:
            log(f"{name} epoch {epoch}: loss {total / max(len(x), 1):.4f}")
    return net
