#include "_net.h"
