# source: https://github.com/pytorch/examples/tree/main/word_language_model (model.py RNNModel + main.py training)
# changed: the Wikitext-2 corpus replaced by a synthetic word stream (24 words; each word mostly determines the
#          next); LSTM with tied weights, emsize = nhid = 32, 2 layers, bptt 12, batch 8, 6 epochs; argparse
#          replaced by a dict; the checkpoint goes to a temporary folder; checks at the end (validation loss
#          falls, tied weights stay one Parameter, hidden state shapes, the reloaded whole-model pickle).
# reference: real
import math
import os
import tempfile
import time

import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super(RNNModel, self).__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        if rnn_type in ['LSTM', 'GRU']:
            self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        else:
            try:
                nonlinearity = {'RNN_TANH': 'tanh', 'RNN_RELU': 'relu'}[rnn_type]
            except KeyError as e:
                raise ValueError("""An invalid option for `--model` was supplied,
                                 options are ['LSTM', 'GRU', 'RNN_TANH' or 'RNN_RELU']""") from e
            self.rnn = nn.RNN(ninp, nhid, nlayers, nonlinearity=nonlinearity, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)

        # Optionally tie weights as in:
        # "Using the Output Embedding to Improve Language Models" (Press & Wolf 2016)
        if tie_weights:
            if nhid != ninp:
                raise ValueError('When using the tied flag, nhid must be equal to emsize')
            self.decoder.weight = self.encoder.weight

        self.init_weights()

        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == 'LSTM':
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        else:
            return weight.new_zeros(self.nlayers, bsz, self.nhid)


args = dict(model="LSTM", emsize=32, nhid=32, nlayers=2, lr=20, clip=0.25, epochs=6, batch_size=8, bptt=12,
            dropout=0.2, tied=True, seed=1111, log_interval=4, save=os.path.join(tempfile.mkdtemp(), "model.pt"))
torch.manual_seed(args["seed"])
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

# ---- synthetic corpus: word w is followed by word (5 w + 1) mod 24, 85% of the time
ntokens = 24


def synthetic_ids(n):
    ids = [0]
    noise, jumps = torch.rand(n), torch.randint(0, ntokens, (n,))
    for i in range(n - 1):
        ids.append((5 * ids[-1] + 1) % ntokens if noise[i] < 0.85 else int(jumps[i]))
    return torch.tensor(ids, dtype=torch.long)


def batchify(data, bsz):
    # Work out how cleanly we can divide the dataset into bsz parts.
    nbatch = data.size(0) // bsz
    # Trim off any extra elements that wouldn't cleanly fit (remainders).
    data = data.narrow(0, 0, nbatch * bsz)
    # Evenly divide the data across the bsz batches.
    data = data.view(bsz, -1).t().contiguous()
    return data.to(device)


eval_batch_size = 4
train_data = batchify(synthetic_ids(8 * 12 * 20), args["batch_size"])
val_data = batchify(synthetic_ids(4 * 12 * 4), eval_batch_size)
test_data = batchify(synthetic_ids(4 * 12 * 4), eval_batch_size)

model = RNNModel(args["model"], ntokens, args["emsize"], args["nhid"], args["nlayers"], args["dropout"],
                 args["tied"]).to(device)
criterion = nn.NLLLoss()


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""

    if isinstance(h, torch.Tensor):
        return h.detach()
    else:
        return tuple(repackage_hidden(v) for v in h)


def get_batch(source, i):
    seq_len = min(args["bptt"], len(source) - 1 - i)
    data = source[i:i+seq_len]
    target = source[i+1:i+1+seq_len].view(-1)
    return data, target


def evaluate(data_source):
    # Turn on evaluation mode which disables dropout.
    model.eval()
    total_loss = 0.
    hidden = model.init_hidden(eval_batch_size)
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, args["bptt"]):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * criterion(output, targets).item()
    return total_loss / (len(data_source) - 1)


def train():
    # Turn on training mode which enables dropout.
    model.train()
    total_loss = 0.
    start_time = time.time()
    hidden = model.init_hidden(args["batch_size"])
    for batch, i in enumerate(range(0, train_data.size(0) - 1, args["bptt"])):
        data, targets = get_batch(train_data, i)
        # Starting each batch, we detach the hidden state from how it was previously produced.
        # If we didn't, the model would try backpropagating all the way to start of the dataset.
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()

        # `clip_grad_norm` helps prevent the exploding gradient problem in RNNs / LSTMs.
        torch.nn.utils.clip_grad_norm_(model.parameters(), args["clip"])
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)

        total_loss += loss.item()

        if batch % args["log_interval"] == 0 and batch > 0:
            cur_loss = total_loss / args["log_interval"]
            elapsed = time.time() - start_time
            print('| epoch {:3d} | {:5d}/{:5d} batches | lr {:02.2f} | ms/batch {:5.2f} | '
                  'loss {:5.2f} | ppl {:8.2f}'.format(
                      epoch, batch, len(train_data) // args["bptt"], lr,
                      elapsed * 1000 / args["log_interval"], cur_loss, math.exp(cur_loss)))
            total_loss = 0
            start_time = time.time()


# Loop over epochs.
lr = args["lr"]
best_val_loss = None
val_losses = [evaluate(val_data)]

for epoch in range(1, args["epochs"] + 1):
    epoch_start_time = time.time()
    train()
    val_loss = evaluate(val_data)
    val_losses.append(val_loss)
    print('-' * 89)
    print('| end of epoch {:3d} | time: {:5.2f}s | valid loss {:5.2f} | '
          'valid ppl {:8.2f}'.format(epoch, (time.time() - epoch_start_time), val_loss, math.exp(val_loss)))
    print('-' * 89)
    # Save the model if the validation loss is the best we've seen so far.
    if not best_val_loss or val_loss < best_val_loss:
        with open(args["save"], 'wb') as f:
            torch.save(model, f)
        best_val_loss = val_loss
    else:
        # Anneal the learning rate if no improvement has been seen in the validation dataset.
        lr /= 4.0

# Load the best saved model.
with open(args["save"], 'rb') as f:
    model = torch.load(f, weights_only=False)
    # after load the rnn params are not a continuous chunk of memory
    # this makes them a continuous chunk, and will speed up forward pass
    # Currently, only rnn model supports flatten_parameters function.
    if args["model"] in ['RNN_TANH', 'RNN_RELU', 'LSTM', 'GRU']:
        model.rnn.flatten_parameters()

# Run on test data.
test_loss = evaluate(test_data)
print('=' * 89)
print('| End of training | test loss {:5.2f} | test ppl {:8.2f}'.format(test_loss, math.exp(test_loss)))
print('=' * 89)

# Checks of what it computed.
assert val_losses[-1] < val_losses[0] - 0.6, val_losses
assert abs(test_loss - best_val_loss) < 0.5, (test_loss, best_val_loss)
assert model.decoder.weight is model.encoder.weight
assert len(list(model.parameters())) == 1 + 8 + 1  # tied weight once, 2 LSTM layers x 4, decoder bias
hidden = model.init_hidden(3)
out, (h, c) = model(test_data[:5, :3], hidden)
assert out.shape == (15, ntokens) and h.shape == (2, 3, 32) and c.shape == (2, 3, 32)
assert h.device.type == device.type and model.rnn.weight_ih_l1.shape == (128, 32)
print("checks passed")
