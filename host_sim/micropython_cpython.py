"""The `micropython` module for firmware running on CPython.

const() is the identity, as MicroPython's compiler makes it; heap_lock() and
friends are accepted but cannot be enforced here: allocation is proven on
the MicroPython unix port, not on CPython.
"""


def const(x):
    return x


def native(f):
    return f


viper = native


def heap_lock():
    pass


def heap_unlock():
    return 0


def mem_info(*args):
    pass


def alloc_emergency_exception_buf(size):
    pass


def schedule(func, arg):
    func(arg)


def opt_level(level=None):
    return 0
