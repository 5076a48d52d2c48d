# source: https://github.com/pytorch/examples/tree/main/time_sequence_prediction (generate_sine_wave.py + train.py)
# changed: the sine waves are generated in the script (N=12 waves of length L=50 instead of 100 of 1000,
#          no traindata.pt); 2 LBFGS steps instead of 15, 50 future steps instead of 1000; no matplotlib
#          plots; checks at the end (loss falls, shapes, dtype float64, LBFGS state).
# reference: real
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

# ---- generate_sine_wave.py
np.random.seed(2)
T = 20
L = 50
N = 12
x = np.empty((N, L), 'int64')
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype('float64')


# ---- train.py
class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 51)
        self.lstm2 = nn.LSTMCell(51, 51)
        self.linear = nn.Linear(51, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs


steps = 2
# set random seed to 0
np.random.seed(0)
torch.manual_seed(0)
# load data and make training set
input = torch.from_numpy(data[3:, :-1])
target = torch.from_numpy(data[3:, 1:])
test_input = torch.from_numpy(data[:3, :-1])
test_target = torch.from_numpy(data[:3, 1:])
# build the model
seq = Sequence()
seq.double()
criterion = nn.MSELoss()
# use LBFGS as optimizer since we can load the whole data to train
optimizer = optim.LBFGS(seq.parameters(), lr=0.8)
# begin to train
losses, test_losses = [], []
for i in range(steps):
    print('STEP: ', i)

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        print('loss:', loss.item())
        losses.append(loss.item())
        loss.backward()
        return loss
    optimizer.step(closure)
    # begin to predict, no need to track gradient here
    with torch.no_grad():
        future = 50
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print('test loss:', loss.item())
        test_losses.append(loss.item())
        y = pred.detach().numpy()

# Checks of what it computed.
assert pred.shape == (3, (L - 1) + 50) and pred.dtype == torch.float64 and y.shape == (3, 99)
assert losses[-1] < losses[0] * 0.5, losses[::5]
assert test_losses[-1] < test_losses[0] or test_losses[-1] < 0.05, test_losses
state = optimizer.state[next(seq.parameters())]
assert state["n_iter"] >= 2 and state["func_evals"] == len(losses), (state["n_iter"], state["func_evals"])
assert seq.lstm1.weight_ih.shape == (4 * 51, 1) and seq.lstm2.weight_hh.dtype == torch.float64
print("checks passed")
