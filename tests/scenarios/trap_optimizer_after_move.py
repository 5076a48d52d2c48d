# SEMANTICS 3: an optimizer built before model.cuda() holds the same Parameter objects, so it sees the move.
# Optimizer state is NOT moved by Module.to (Adam's exp_avg stays where it was created; its 'step' counter
# lives on the CPU unless capturable/fused). zero_grad() sets grads to None (PyTorch 2.x default).
import torch
import torch.nn as nn

model = nn.Linear(2, 1)
sgd = torch.optim.SGD(model.parameters(), lr=0.1)
model.cuda()
p0 = sgd.param_groups[0]['params'][0]
print(p0 is model.weight, p0.device)
model(torch.ones(3, 2, device='cuda')).sum().backward()
print(model.weight.grad.device, model.bias.grad)
sgd.step()
sgd.zero_grad()
print(model.weight.grad, model.bias.grad)
adam = torch.optim.Adam(model.parameters())
model(torch.ones(3, 2, device='cuda')).sum().backward()
adam.step()
st = adam.state[model.weight]
print(sorted(st.keys()), st['exp_avg'].device, st['step'].device, st['step'])
model.cpu()
print(model.weight.device, st['exp_avg'].device, adam.param_groups[0]['params'][0] is model.weight)
model.zero_grad()
print(model.weight.grad)
