#include "_stat.h"
