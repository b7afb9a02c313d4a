#include <gtest/gtest.h>

#include "twice.h"

TEST(Twice, DoublesANumber) { EXPECT_EQ(twice(2), 4); }
