#include "_dirent.h"
