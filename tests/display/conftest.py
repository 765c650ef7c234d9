import pytest
import torch


@pytest.fixture(autouse=True, scope="package")
def one_torch_thread():
    """Small batched matmuls are slower with threads on a busy machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
