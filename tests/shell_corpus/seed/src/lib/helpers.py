def chunks(seq, size):
    for i in range(0, len(seq), size):
        yield seq[i:i + size]


def retry(fn, times=3):
    # TODO: add backoff
    for _ in range(times):
        try:
            return fn()
        except Exception:
            pass
    return None
