# A training loop that fails at its third batch (a batch of the wrong width, as a bad data file gives): the
# traceback and exit status are the script's, and the recording of the steps before is still written.
# expect-exit: 1
# expect-stderr: RuntimeError
# expect-stdout: step 1 ok
# expect-owners: model.0.weight, model.0.weight.grad, optimizer.state[model.0.weight].momentum_buffer
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 10), nn.Sigmoid(), nn.Linear(10, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
batches = [torch.randn(4, 10), torch.randn(4, 10), torch.randn(4, 12)]
for step, batch in enumerate(batches):
    optimizer.zero_grad()
    loss = model(batch).pow(2).mean()
    loss.backward()
    optimizer.step()
    print("step %d ok" % step, flush=True)
