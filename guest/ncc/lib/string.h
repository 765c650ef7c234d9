#include "_libc.h"
