"""Tensor programs for the sweep: views, in-place ops, .to identity, .data assignment, autograd through a
conversion, layout queries and numpy memory sharing on one small base tensor."""


def tensor_program(rng):
    """Views, in-place ops, .to identity, .data assignment and autograd through a conversion."""
    a, b = rng.randint(1, 4), rng.randint(2, 4)
    dt = rng.choice(["torch.float32", "torch.float64"])
    other = "torch.float64" if dt == "torch.float32" else "torch.float32"
    L = [f"base = torch.arange({a * b}, dtype={dt}).reshape({a}, {b})"]
    views = {"v0": "base[0]", "v1": "base[:, 1:]", "v2": "base.view(-1)", "v3": "base.t()",
             "v4": "base.transpose(0, 1)", "v5": f"base.split(1, dim=1)[0]", "v6": "base.unsqueeze(0)",
             "v7": "base.detach()", "v8": "base.data", "v9": "base.reshape(-1)",
             "v10": "base.permute(1, 0)", "v11": "base.flatten()", "v12": "base.chunk(2, dim=1)[-1]",
             "v13": "base.unsqueeze(1).squeeze(1)", "v14": "base.narrow(1, 1, 1)", "v15": "base.unbind(0)[-1]"}
    chosen = rng.sample(sorted(views), rng.randint(1, 4))
    for v in chosen:
        L.append(f"{v} = {views[v]}")
    steps = rng.randint(2, 6)
    for _ in range(steps):
        r = rng.random()
        v = rng.choice(chosen)
        if r < 0.25:
            L.append(f"{v}.add_({rng.randint(1, 9)})")
            L.append("print(base.tolist(), base._version)")
        elif r < 0.4:
            L.append(f"{v}.mul_(2)")
            L.append(f"print({v}.tolist())")
        elif r < 0.55:
            conv = rng.choice([f"base.to({other})", f"base.to({dt})", "base.to('cpu')", "base.double()",
                               "base.float()", f"base.to({dt}, copy=True)", "base.cpu()",
                               f"base.to(torch.zeros(1, dtype={other}))"])
            L.append(f"c = {conv}")
            L.append("print('same object', c is base, c.dtype, base.dtype)")
            L.append(f"c.add_(1)")
            L.append("print(base.tolist())")
        elif r < 0.7:
            L.append(f"base.data = torch.ones({a}, {b}, dtype={other})")
            L.append(f"print(base.dtype, {v}.dtype, base.tolist(), {v}.tolist())")
            L.append(f"base.data = torch.zeros({a}, {b}, dtype={dt})")
        elif r < 0.85:
            L.append(f"w = torch.ones({b}, dtype={dt}, requires_grad=True)")
            L.append(f"y = w.to({other})")
            L.append("print(type(y.grad_fn).__name__, y.is_leaf, w.to(w.dtype) is w)")
            L.append("(y * 2).sum().backward()")
            L.append("print(w.grad.dtype, w.grad.tolist(), y.grad is None)")
        elif r < 0.9:
            L.append(f"print({v}.stride(), {v}.storage_offset(), {v}.is_contiguous(), "
                     f"{v}.contiguous() is {v}, {v}.shape)")
            L.append(f"k = {v}.clone()")
            L.append("k.add_(1)")
            L.append(f"print(k.is_contiguous(), base.tolist())")
        elif r < 0.95:
            L.append("a = base.numpy()  # shares memory with base")
            L.append("a[0, 0] = -5")
            L.append("print(base.tolist(), base._version)")
            L.append(f"n = torch.from_numpy(a.copy())")
            L.append("n.add_(1)")
            L.append("print(n.dtype, base.tolist())")
        else:
            L.append(f"d = {v}.clone()")
            L.append(f"d.copy_(torch.full(d.shape, 7, dtype={other}))")
            L.append(f"{v}.copy_(d)")
            L.append(f"print(base.tolist(), {v}.dtype, d.dtype)")
    L.append("print([(" + ", ".join(f"{v}.dtype" for v in chosen) + ")])")
    return L
