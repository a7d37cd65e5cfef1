"""The NoGo policy-value network in PyTorch, and its export to the `.sbnn` arrays.

Trained with BatchNorm after every convolution (optional: `bn=False` gives the plain network);
at export each BatchNorm is folded into the convolution before it, so the file holds plain
conv+bias layers, exactly the network `sbnn.forward` and the Rust forward pass compute.
"""

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

import sbnn

POINTS = sbnn.POINTS


class ConvUnit(nn.Module):
    """conv (k x k, zero padding) then, when `bn`, BatchNorm; the activation is the caller's."""

    def __init__(self, cin, cout, k, bn):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, k, padding=k // 2, bias=not bn)
        self.bn = nn.BatchNorm2d(cout) if bn else None

    def forward(self, x):
        y = self.conv(x)
        return self.bn(y) if self.bn is not None else y

    def folded(self):
        """(weight [out][in][k][k], bias [out]) of the plain conv+bias this unit computes in
        eval mode, in float64."""
        w = self.conv.weight.detach().double()
        if self.bn is None:
            return w, self.conv.bias.detach().double()
        bn = self.bn
        scale = bn.weight.detach().double() / torch.sqrt(bn.running_var.double() + bn.eps)
        bias = bn.bias.detach().double() - bn.running_mean.double() * scale
        return w * scale[:, None, None, None], bias

    def load(self, w, b):
        """Sets this unit to compute conv(w) + b (in eval mode, and in train mode until the
        batch statistics move away from the neutral ones set here; see `Net.calibrate`)."""
        with torch.no_grad():
            self.conv.weight.copy_(torch.tensor(np.array(w, dtype=np.float32).reshape(self.conv.weight.shape)))
            if self.bn is None:
                self.conv.bias.copy_(torch.tensor(np.array(b, dtype=np.float32)))
            else:
                self.bn.weight.fill_(1.0)
                self.bn.bias.copy_(torch.tensor(np.array(b, dtype=np.float32)))
                self.bn.running_mean.zero_()
                self.bn.running_var.fill_(1.0 - self.bn.eps)


class Net(nn.Module):
    def __init__(self, channels, blocks, hidden, bn=True):
        super().__init__()
        self.channels, self.blocks_n, self.hidden, self.use_bn = channels, blocks, hidden, bn
        c = channels
        self.stem = ConvUnit(sbnn.INPUTS, c, 3, bn)
        self.blocks = nn.ModuleList(
            nn.ModuleList([ConvUnit(c, c, 3, bn), ConvUnit(c, c, 3, bn)]) for _ in range(blocks)
        )
        self.policy_conv = ConvUnit(c, 2, 1, bn)
        self.policy_fc = nn.Linear(2 * POINTS, POINTS)
        self.value_conv = ConvUnit(c, 1, 1, bn)
        self.value_fc1 = nn.Linear(POINTS, hidden)
        self.value_fc2 = nn.Linear(hidden, 1)
        # Each block starts as the identity (its second conv zero; with BN, its scale zero):
        # deep residual stacks then train from the first step without exploding.
        for conv1, conv2 in self.blocks:
            if bn:
                nn.init.zeros_(conv2.bn.weight)
            else:
                nn.init.zeros_(conv2.conv.weight)
                nn.init.zeros_(conv2.conv.bias)

    def forward(self, planes):
        """planes: float [N][8][9][9]. Returns (logits [N][81], value [N] in [-1, 1])."""
        n = planes.shape[0]
        ones = planes.new_ones((n, 1, 9, 9))
        x = F.relu(self.stem(torch.cat([planes, ones], dim=1)))
        for conv1, conv2 in self.blocks:
            h = F.relu(conv1(x))
            x = F.relu(x + conv2(h))
        p = F.relu(self.policy_conv(x)).reshape(n, 2 * POINTS)
        logits = self.policy_fc(p)
        v = F.relu(self.value_conv(x)).reshape(n, POINTS)
        v = torch.tanh(self.value_fc2(F.relu(self.value_fc1(v))))
        return logits, v[:, 0]

    def units(self):
        """The conv units with their file names, in file order."""
        out = [("stem", self.stem)]
        for i, (conv1, conv2) in enumerate(self.blocks):
            out += [(f"block{i}.conv1", conv1), (f"block{i}.conv2", conv2)]
        out += [("policy.conv", self.policy_conv), ("value.conv", self.value_conv)]
        return out

    def export_arrays(self):
        """name -> float32 numpy array, the `.sbnn` payload (BatchNorm folded in)."""
        arrays = {}
        for name, unit in self.units():
            w, b = unit.folded()
            if w.shape[-1] == 1:
                w = w[:, :, 0, 0]
            arrays[f"{name}.w"] = w.float().numpy()
            arrays[f"{name}.b"] = b.float().numpy()
        for name, fc in [("policy.fc", self.policy_fc), ("value.fc1", self.value_fc1),
                         ("value.fc2", self.value_fc2)]:
            arrays[f"{name}.w"] = fc.weight.detach().float().numpy().copy()
            arrays[f"{name}.b"] = fc.bias.detach().float().numpy().copy()
        return arrays

    def load_arrays(self, arrays):
        """Sets the network to the file's arrays (see `ConvUnit.load`)."""
        for name, unit in self.units():
            unit.load(arrays[f"{name}.w"], arrays[f"{name}.b"])
        with torch.no_grad():
            for name, fc in [("policy.fc", self.policy_fc), ("value.fc1", self.value_fc1),
                             ("value.fc2", self.value_fc2)]:
                fc.weight.copy_(torch.tensor(np.array(arrays[f"{name}.w"], dtype=np.float32)))
                fc.bias.copy_(torch.tensor(np.array(arrays[f"{name}.b"], dtype=np.float32)))

    @torch.no_grad()
    def calibrate(self, planes):
        """After `load_arrays` with BatchNorm: sets every BatchNorm so that, on this batch's
        statistics, it passes its conv's output through unchanged plus the file's bias. Training
        (which normalises by batch statistics) then starts from the file's network instead of
        from a jump. One unit at a time, in order, each seeing the calibrated units before it."""
        if not self.use_bn:
            return
        hooks = []

        def hook(unit):
            def run(module, inputs):
                y = unit.conv(inputs[0])
                mean = y.mean(dim=(0, 2, 3))
                var = y.var(dim=(0, 2, 3), unbiased=False)
                bias = unit.bn.bias.clone()  # the file's bias, as `load` left it
                unit.bn.weight.copy_(torch.sqrt(var + unit.bn.eps))
                unit.bn.bias.copy_(bias + mean)
                unit.bn.running_mean.copy_(mean)
                unit.bn.running_var.copy_(var)
            return run

        for _, unit in self.units():
            hooks.append(unit.register_forward_pre_hook(hook(unit)))
        was = self.training
        self.eval()  # the calibrated running statistics are used at once
        self.forward(planes)
        self.train(was)
        for h in hooks:
            h.remove()
