# Indexing, reductions, joins and splits on deterministic values.
import torch

x = torch.arange(12.).reshape(3, 4)
print(x[1], x[:, 2], x[1:, ::2], x[-1, -1], x[x > 8], x[[0, 2]], x[torch.tensor([2, 0]), 1])
print(x.sum(), x.sum(0), x.sum(1, keepdim=True), x.mean(1), x.max(), x.max(dim=0))
print(x.argmax(), x.argmax(1), x.amax(0), x.min(1).values, x.var(), x.std(1))
print(x.index_select(1, torch.tensor([3, 0])), x.gather(1, torch.tensor([[0], [1], [2]])))
print(torch.cat([x, x], 0).shape, torch.stack([x, x], 2).shape, [t.shape for t in x.split([1, 3], 1)])
print([t.tolist() for t in x.chunk(2, 1)], torch.where(x > 5, x, torch.zeros(1)))
print(x.clamp(2, 9), (x @ x.t()).diag(), torch.mm(x, torch.ones(4, 1)).flatten())
print(x.exp()[0, :2], x.sqrt()[1], x.pow(2)[0], (x / 2)[2], (x // 3)[2], (x % 5)[2])
print(x.t().contiguous().view(-1)[:5])
print(torch.bmm(torch.ones(2, 1, 3), torch.ones(2, 3, 2)), torch.matmul(torch.ones(3), torch.ones(3)))
print(x.unsqueeze(0).expand(2, 3, 4).sum(0)[0], x.item() if x.numel() == 1 else x[0, 0].item())
print(x.tolist()[1], torch.tensor(2.5).item(), int(torch.tensor(7)), float(torch.tensor([3.])))
print(torch.eq(x, x).all(), torch.equal(x, x.clone()), (x == 3).nonzero(), x.ne(0).sum())
