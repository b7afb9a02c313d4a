def twice(n: int) -> int:
    return 2 * n
