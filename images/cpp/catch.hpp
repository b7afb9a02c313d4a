// Catch2 v2's single header, as Exercism's C++ tests include it, over the image's Catch2 v3.
#pragma once
#include <catch2/catch_all.hpp>

// v2 spelled it without its namespace.
using Catch::Approx;
