# Recurrent and attention layers, packed sequences and the new optimizers on a simulated GPU: default h0/c0
# are made on the input's device, outputs and gradients stay there, mixed devices fail with ATen's RNN
# message, a PackedSequence moves its data but keeps batch_sizes on the CPU, and optimizer state is made at
# the first step on each parameter's device at that moment (Adagrad: at construction).
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.manual_seed(0)
lstm = nn.LSTM(3, 4, num_layers=2, batch_first=True).to("cuda:1")
x = torch.randn(2, 5, 3, device="cuda:1")
out, (h, c) = lstm(x)
print(out.device, h.device, c.device, tuple(out.shape), tuple(h.shape))
out.sum().backward()
print(lstm.weight_ih_l0.grad.device, lstm.bias_hh_l1.grad.device)

for bad in (lambda: lstm(torch.randn(2, 5, 3)),
            lambda: lstm(x, (torch.zeros(2, 2, 4), torch.zeros(2, 2, 4))),
            lambda: nn.GRUCell(3, 4)(x[:, 0])):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)

seqs = [torch.ones(4, 3), torch.ones(2, 3) * 2, torch.ones(1, 3) * 3]
packed = pack_padded_sequence(pad_sequence(seqs, batch_first=True), [4, 2, 1], batch_first=True)
moved = packed.to("cuda:1")
print(moved.data.device, moved.batch_sizes.device, moved.is_cuda, packed.is_cuda)
gru = nn.GRU(3, 4, bidirectional=True).to("cuda:1")
pout, ph = gru(moved)
padded, lengths = pad_packed_sequence(pout, batch_first=True)
print(padded.device, tuple(padded.shape), lengths.device, lengths.tolist(), ph.device)

mha = nn.MultiheadAttention(8, 2, batch_first=True).to("cuda:0")
q = torch.randn(2, 3, 8, device="cuda:0")
o, w = mha(q, q, q, key_padding_mask=torch.tensor([[False, False, True], [False, False, False]], device="cuda:0"))
print(o.device, w.device, tuple(w.shape), w[0, :, 2].abs().sum().item())
enc = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, 16, batch_first=True), 2).to("cuda:0")
print(enc(q, mask=nn.Transformer.generate_square_subsequent_mask(3, device="cuda:0")).device)
print(nn.Dropout2d(0.5)(torch.ones(2, 4, 3, 3, device="cuda:1")).device)

model = nn.Linear(4, 2)
opts = [torch.optim.RMSprop(model.parameters(), momentum=0.9, centered=True), torch.optim.Adadelta(model.parameters()),
        torch.optim.Adamax(model.parameters()), torch.optim.NAdam(model.parameters()),
        torch.optim.RAdam(model.parameters()), torch.optim.Adagrad(model.parameters())]
print("state before the move:", [len(o.state) for o in opts])
model.to("cuda:1")
model(torch.ones(3, 4, device="cuda:1")).sum().backward()
for o in opts[:5]:
    o.step()
for o in opts:
    st = o.state[model.weight]
    print(type(o).__name__, {k: str(v.device) for k, v in st.items()})
try:
    opts[5].step()
except RuntimeError as e:
    print("Adagrad state made before the move:", str(e).split(" (")[0])

lbfgs = torch.optim.LBFGS(model.parameters(), max_iter=3)
def closure():
    lbfgs.zero_grad()
    loss = model(torch.ones(3, 4, device="cuda:1")).pow(2).sum()
    loss.backward()
    return loss
lbfgs.step(closure)
st = lbfgs.state[model.weight]
print("LBFGS", st["d"].device, st["prev_flat_grad"].device, st["n_iter"])
