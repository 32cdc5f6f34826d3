"""Dask, opened once for every engine that runs tasks on a cluster (the tier engine, the
opening book): ``local:N`` starts a :class:`distributed.LocalCluster` of N worker processes on
this machine, ``tcp://HOST:PORT`` connects to a running scheduler. The only module that imports
Dask; it is imported only when a cluster is asked for.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from perfectplay.errors import ClusterError, InputFormatError

__all__ = ["CONNECT_SECONDS", "dask_client", "parse_dask"]

_LOCAL = re.compile(r"local:([0-9]+)(?:x([0-9]+))?")
_SCHEMES = ("tcp://", "tls://")
_TRIM = "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_"
"""Dask starts workers with glibc's heap trimmed above 64 KiB, so every batch's arrays become
fresh mappings, page-faulted anew: measured 1.55x the CPU of a Connect Four chunk. Unset for
a LocalCluster; docs/distributed.md says how for workers started by hand."""
CONNECT_SECONDS = 30
"""How long to wait for the scheduler to answer, and then for a first worker to join."""


def parse_dask(spec: str) -> tuple[int, int] | str:
    """The local worker processes and threads of each of ``local:N`` (one thread each) or
    ``local:NxT``, or the scheduler address of ``tcp://HOST:PORT``.

    Raises
    ------
    InputFormatError
        If `spec` is neither (or asks for no worker or no thread).

    Examples
    --------
    >>> parse_dask("local:2"), parse_dask("local:1x2"), parse_dask("tcp://10.0.0.5:8786")
    ((2, 1), (1, 2), 'tcp://10.0.0.5:8786')
    """
    local = _LOCAL.fullmatch(spec)
    if local is not None:
        processes, threads = int(local.group(1)), int(local.group(2) or 1)
        if processes >= 1 and threads >= 1:
            return processes, threads
    if spec.startswith(_SCHEMES) and len(spec) > len("tcp://"):
        return spec
    raise InputFormatError(
        f"--dask takes local:N or local:NxT (N >= 1 worker processes on this machine, T >= 1 "
        f"threads each) or a scheduler address tcp://HOST:PORT, got {spec!r}"
    )


@contextmanager
def dask_client(spec: str) -> Iterator[Any]:
    """A connected :class:`distributed.Client` with at least one worker; closed afterwards."""
    import dask
    from distributed import Client, LocalCluster

    target = parse_dask(spec)
    if not isinstance(target, str):
        with (
            dask.config.set({_TRIM: None}),  # read as the nannies start, and restart, workers
            LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=target[0],
                threads_per_worker=target[1],
                processes=True,
                dashboard_address="127.0.0.1:0",
                silence_logs=logging.ERROR,
            ) as cluster,
            Client(cluster) as client,  # type: ignore[no-untyped-call]
        ):
            print(
                f"Dask: local cluster of {target[0]} worker processes, {target[1]} "
                f"thread{'s' if target[1] > 1 else ''} each, dashboard "
                f"{client.dashboard_link}",
                file=sys.stderr,
            )
            yield client
        return
    try:
        client = Client(target, timeout=f"{CONNECT_SECONDS}s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError) as error:
        raise ClusterError(f"cannot reach the Dask scheduler at {target}: {error}") from None
    with client:
        try:
            client.wait_for_workers(1, timeout=CONNECT_SECONDS)
        except TimeoutError:
            raise ClusterError(
                f"the Dask scheduler at {target} has no worker (waited {CONNECT_SECONDS} s)"
            ) from None
        workers = len(client.scheduler_info(n_workers=-1)["workers"])
        print(f"Dask: scheduler {target}, {workers} workers", file=sys.stderr)
        yield client
