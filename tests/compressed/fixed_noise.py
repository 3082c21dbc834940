"""A fixed hash to numbers in [0, 1): the noise of the generated traces of tests/compressed/run.sh (the same on every
run and machine)."""


def noise(*k):
    h = 0
    for x in k:
        h = (h * 1_000_003 + x + 12_345) * 2_654_435_761 % 2**32
        h = (h ^ (h >> 15)) * 2_246_822_519 % 2**32
    return (h ^ (h >> 13)) / 2**32
