# sort/argsort descending rank NaN above every number (first), as ascending puts it last; index_select and
# embedding refuse a negative index ("index out of range in self") where numpy's take would wrap it.
import torch
x = torch.arange(5.)
for e in ["x.index_select(0, torch.tensor([-1]))", "x.index_select(0, torch.tensor([5]))", "torch.nn.functional.embedding(torch.tensor([-1]), torch.randn(3, 2))",
          "torch.tensor([1., float('nan'), 3., -1.]).sort(descending=True)", "torch.tensor([1., float('nan'), 3., -1.]).sort()",
          "torch.tensor([[1., float('nan')], [3., 2.]]).sort(dim=1, descending=True)", "torch.tensor([1., float('nan'), 3.]).argsort(descending=True)",
          "torch.tensor([1., float('nan'), 3.]).topk(2)", "torch.tensor([1., float('nan'), 3.]).max()", "torch.tensor([1., float('nan'), 3.]).msort()",
          "torch.tensor([2, 1, 2, 1]).sort(descending=True, stable=True)"]:
    try:
        print(e, "->", eval(e))
    except Exception as ex:
        print(e, "ERR", type(ex).__name__, ex)
