#include <gtest/gtest.h>

#include "count_vowels.h"

TEST(CountVowels, CountsEachVowel) { EXPECT_EQ(count_vowels("banana"), 3); }
