# Adam: state created on the first step (keys and values), parameter update on fixed gradients.
import torch

p = torch.nn.Parameter(torch.tensor([1., -1., 0.5]))
opt = torch.optim.Adam([p], lr=0.1)
print(len(opt.state))
p.grad = torch.tensor([0.5, -0.25, 0.])
opt.step()
st = opt.state[p]
print(sorted(st.keys()))
print(float(st['step']), st['exp_avg'], st['exp_avg_sq'])
print(p.detach())
p.grad = torch.tensor([0.5, -0.25, 0.])
opt.step()
print(float(opt.state[p]['step']), p.detach())
print(st['exp_avg'].dtype, st['exp_avg'].shape, st['exp_avg'].device)
print(opt.param_groups[0]['betas'], opt.param_groups[0]['eps'], opt.param_groups[0]['weight_decay'])
lin = torch.nn.Linear(2, 2)
opt2 = torch.optim.Adam(lin.parameters())
print(len(opt2.state), opt2.param_groups[0]['lr'])
lin(torch.ones(1, 2)).sum().backward()
opt2.step()
print(len(opt2.state), [sorted(opt2.state[q].keys()) for q in lin.parameters()])
print([opt2.state[q]['exp_avg'].shape for q in lin.parameters()])
