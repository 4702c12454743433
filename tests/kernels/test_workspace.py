"""Work buffers reused from call to call (scorestd.kernels.workspace)."""

from __future__ import annotations

import numpy as np

from scorestd.kernels.workspace import Workspace, reusing_buffers, workspace


def test_a_name_reuses_its_memory_while_it_is_large_enough():
    ws = Workspace()
    a = ws.array("a", (4, 5))
    a[...] = 1.0
    b = ws.array("a", (2, 3), np.int64)  # 48 bytes fit in the 160 of "a"
    assert np.shares_memory(a, b) and b.shape == (2, 3) and b.dtype == np.int64
    c = ws.array("a", (10, 10))  # larger: new memory
    assert not np.shares_memory(a, c) and ws.nbytes == 800
    d = ws.array("d", (4, 5))
    assert not np.shares_memory(c, d) and d.flags.c_contiguous


def test_kernels_share_the_workspace_of_the_enclosing_run_only():
    outside = workspace()
    assert workspace() is not outside  # a fresh one each time: nothing kept
    with reusing_buffers() as ws:
        assert workspace() is ws
        with reusing_buffers() as inner:
            assert inner is ws  # nested: the outer one
        mine = Workspace()
        with reusing_buffers(mine):
            assert workspace() is mine
        assert workspace() is ws
    assert workspace() is not ws
