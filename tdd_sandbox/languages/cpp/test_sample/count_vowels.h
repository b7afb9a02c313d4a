#pragma once

#include <string>

int count_vowels(const std::string& word);
