#include "count_vowels.h"

int count_vowels(const std::string& word) {
    int count = 0;
    for (char letter : word) count += std::string("aeiou").find(letter) != std::string::npos;
    return count;
}
