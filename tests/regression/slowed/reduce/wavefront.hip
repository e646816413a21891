// reduce/wavefront slowed on purpose (tests/regression/slowed.h): each timed run does its work three times.
#include "../../slowed.h"

#include "../../../../plugins/reduce/wavefront.hip"
