"""Reference solutions of the bundled katas: the acceptance suites must pass on them."""

from __future__ import annotations

SOLUTIONS: dict[tuple[str, str], tuple[str, str]] = {
    ("fizzbuzz", "python"): (
        "fizzbuzz.py",
        "def fizzbuzz(n: int) -> str:\n"
        '    word = ("Fizz" if n % 3 == 0 else "") + ("Buzz" if n % 5 == 0 else "")\n'
        "    return word or str(n)\n",
    ),
    ("fizzbuzz", "rust"): (
        "src/lib.rs",
        "pub fn fizzbuzz(n: u32) -> String {\n    match (n % 3, n % 5) {\n"
        '        (0, 0) => "FizzBuzz".to_string(),\n        (0, _) => "Fizz".to_string(),\n'
        '        (_, 0) => "Buzz".to_string(),\n        _ => n.to_string(),\n    }\n}\n',
    ),
    ("string-calculator", "python"): (
        "calculator.py",
        "import re\n\n\n"
        "def add(numbers: str) -> int:\n"
        "    delimiters = [',', '\\n']\n"
        "    if numbers.startswith('//'):\n"
        "        header, numbers = numbers[2:].split('\\n', 1)\n"
        "        delimiters.append(header)\n"
        "    pattern = '|'.join(re.escape(d) for d in delimiters)\n"
        "    values = [int(part) for part in re.split(pattern, numbers) if part]\n"
        "    negatives = [v for v in values if v < 0]\n"
        "    if negatives:\n"
        "        raise ValueError('negatives not allowed: ' + ', '.join(map(str, negatives)))\n"
        "    return sum(v for v in values if v <= 1000)\n",
    ),
    ("string-calculator", "rust"): (
        "src/lib.rs",
        "pub fn add(numbers: &str) -> Result<i64, String> {\n"
        '    let (delimiter, body) = match numbers.strip_prefix("//") {\n'
        "        Some(rest) => match rest.split_once('\\n') {\n"
        "            Some((d, b)) => (d.to_string(), b.to_string()),\n"
        "            None => (String::new(), rest.to_string()),\n"
        "        },\n"
        '        None => (",".to_string(), numbers.to_string()),\n'
        "    };\n"
        '    let normalised = body.replace(\'\\n\', ",").replace(delimiter.as_str(), ",");\n'
        "    let mut values = Vec::new();\n"
        "    for part in normalised.split(',').filter(|p| !p.is_empty()) {\n"
        "        values.push(part.parse::<i64>().map_err(|e| e.to_string())?);\n"
        "    }\n"
        "    let negatives: Vec<String> =\n"
        "        values.iter().filter(|v| **v < 0).map(|v| v.to_string()).collect();\n"
        "    if !negatives.is_empty() {\n"
        '        return Err(format!("negatives not allowed: {}", negatives.join(", ")));\n'
        "    }\n"
        "    Ok(values.iter().filter(|v| **v <= 1000).sum())\n"
        "}\n",
    ),
    ("bowling", "python"): (
        "bowling.py",
        "def score(rolls: list[int]) -> int:\n"
        "    total, index = 0, 0\n"
        "    for _ in range(10):\n"
        "        if rolls[index] == 10:\n"
        "            total += 10 + rolls[index + 1] + rolls[index + 2]\n"
        "            index += 1\n"
        "        elif rolls[index] + rolls[index + 1] == 10:\n"
        "            total += 10 + rolls[index + 2]\n"
        "            index += 2\n"
        "        else:\n"
        "            total += rolls[index] + rolls[index + 1]\n"
        "            index += 2\n"
        "    return total\n",
    ),
    ("bowling", "rust"): (
        "src/lib.rs",
        "pub fn score(rolls: &[u32]) -> u32 {\n"
        "    let (mut total, mut index) = (0, 0);\n"
        "    for _ in 0..10 {\n"
        "        if rolls[index] == 10 {\n"
        "            total += 10 + rolls[index + 1] + rolls[index + 2];\n"
        "            index += 1;\n"
        "        } else if rolls[index] + rolls[index + 1] == 10 {\n"
        "            total += 10 + rolls[index + 2];\n"
        "            index += 2;\n"
        "        } else {\n"
        "            total += rolls[index] + rolls[index + 1];\n"
        "            index += 2;\n"
        "        }\n"
        "    }\n"
        "    total\n"
        "}\n",
    ),
    ("roman-numerals", "python"): (
        "roman.py",
        "SYMBOLS = [(1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'), (100, 'C'),\n"
        "           (90, 'XC'), (50, 'L'), (40, 'XL'), (10, 'X'), (9, 'IX'), (5, 'V'),\n"
        "           (4, 'IV'), (1, 'I')]\n\n\n"
        "def to_roman(n: int) -> str:\n"
        "    out = ''\n"
        "    for value, symbol in SYMBOLS:\n"
        "        while n >= value:\n"
        "            out += symbol\n"
        "            n -= value\n"
        "    return out\n",
    ),
    ("roman-numerals", "rust"): (
        "src/lib.rs",
        'const SYMBOLS: [(u32, &str); 13] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"),\n'
        '    (100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),\n'
        '    (4, "IV"), (1, "I")];\n\n'
        "pub fn to_roman(mut n: u32) -> String {\n"
        "    let mut out = String::new();\n"
        "    for (value, symbol) in SYMBOLS {\n"
        "        while n >= value {\n"
        "            out.push_str(symbol);\n"
        "            n -= value;\n"
        "        }\n"
        "    }\n"
        "    out\n"
        "}\n",
    ),
    ("fizzbuzz", "go"): (
        "kata.go",
        'package kata\n\nimport "strconv"\n\n'
        "// FizzBuzz turns n into its word.\n"
        "func FizzBuzz(n int) string {\n"
        '\tword := ""\n'
        "\tif n%3 == 0 {\n"
        '\t\tword += "Fizz"\n'
        "\t}\n"
        "\tif n%5 == 0 {\n"
        '\t\tword += "Buzz"\n'
        "\t}\n"
        '\tif word == "" {\n'
        "\t\treturn strconv.Itoa(n)\n"
        "\t}\n"
        "\treturn word\n"
        "}\n",
    ),
    ("string-calculator", "go"): (
        "kata.go",
        "package kata\n\n"
        'import (\n\t"errors"\n\t"strconv"\n\t"strings"\n)\n\n'
        "// Add sums the numbers in a delimited string.\n"
        "func Add(numbers string) (int, error) {\n"
        '\tdelimiters := []string{",", "\\n"}\n'
        '\tif rest, ok := strings.CutPrefix(numbers, "//"); ok {\n'
        '\t\theader, body, _ := strings.Cut(rest, "\\n")\n'
        "\t\tdelimiters = append(delimiters, header)\n"
        "\t\tnumbers = body\n"
        "\t}\n"
        "\tfor _, d := range delimiters {\n"
        '\t\tnumbers = strings.ReplaceAll(numbers, d, ",")\n'
        "\t}\n"
        "\ttotal := 0\n"
        "\tvar negatives []string\n"
        '\tfor _, part := range strings.Split(numbers, ",") {\n'
        '\t\tif part == "" {\n'
        "\t\t\tcontinue\n"
        "\t\t}\n"
        "\t\tvalue, err := strconv.Atoi(part)\n"
        "\t\tif err != nil {\n"
        "\t\t\treturn 0, err\n"
        "\t\t}\n"
        "\t\tif value < 0 {\n"
        "\t\t\tnegatives = append(negatives, part)\n"
        "\t\t} else if value <= 1000 {\n"
        "\t\t\ttotal += value\n"
        "\t\t}\n"
        "\t}\n"
        "\tif len(negatives) > 0 {\n"
        '\t\treturn 0, errors.New("negatives not allowed: " + strings.Join(negatives, ", "))\n'
        "\t}\n"
        "\treturn total, nil\n"
        "}\n",
    ),
    ("bowling", "go"): (
        "kata.go",
        "package kata\n\n"
        "// Score totals a complete game.\n"
        "func Score(rolls []int) int {\n"
        "\ttotal, index := 0, 0\n"
        "\tfor frame := 0; frame < 10; frame++ {\n"
        "\t\tswitch {\n"
        "\t\tcase rolls[index] == 10:\n"
        "\t\t\ttotal += 10 + rolls[index+1] + rolls[index+2]\n"
        "\t\t\tindex++\n"
        "\t\tcase rolls[index]+rolls[index+1] == 10:\n"
        "\t\t\ttotal += 10 + rolls[index+2]\n"
        "\t\t\tindex += 2\n"
        "\t\tdefault:\n"
        "\t\t\ttotal += rolls[index] + rolls[index+1]\n"
        "\t\t\tindex += 2\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn total\n"
        "}\n",
    ),
    ("roman-numerals", "go"): (
        "kata.go",
        'package kata\n\nimport "strings"\n\n'
        "var values = []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}\n"
        "var symbols = []string{\n"
        '\t"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I",\n}\n\n'
        "// ToRoman writes n in Roman numerals.\n"
        "func ToRoman(n int) string {\n"
        "\tvar out strings.Builder\n"
        "\tfor i, value := range values {\n"
        "\t\tfor n >= value {\n"
        "\t\t\tout.WriteString(symbols[i])\n"
        "\t\t\tn -= value\n"
        "\t\t}\n"
        "\t}\n"
        "\treturn out.String()\n"
        "}\n",
    ),
}


# JavaScript, as Prettier prints it.
_JS_FIZZBUZZ = """\
export function fizzBuzz(n) {
  const word = (n % 3 === 0 ? "Fizz" : "") + (n % 5 === 0 ? "Buzz" : "");
  return word || String(n);
}
"""
_JS_STRING_CALCULATOR = """\
export function add(numbers) {
  let body = numbers;
  const delimiters = [",", "\\n"];
  if (body.startsWith("//")) {
    const end = body.indexOf("\\n");
    delimiters.push(body.slice(2, end));
    body = body.slice(end + 1);
  }
  for (const delimiter of delimiters) {
    body = body.split(delimiter).join(",");
  }
  const values = body
    .split(",")
    .filter((part) => part !== "")
    .map(Number);
  const negatives = values.filter((value) => value < 0);
  if (negatives.length > 0) {
    throw new Error(`negatives not allowed: ${negatives.join(", ")}`);
  }
  return values
    .filter((value) => value <= 1000)
    .reduce((sum, value) => sum + value, 0);
}
"""
_JS_BOWLING = """\
export function score(rolls) {
  let total = 0;
  let index = 0;
  for (let frame = 0; frame < 10; frame += 1) {
    if (rolls[index] === 10) {
      total += 10 + rolls[index + 1] + rolls[index + 2];
      index += 1;
    } else if (rolls[index] + rolls[index + 1] === 10) {
      total += 10 + rolls[index + 2];
      index += 2;
    } else {
      total += rolls[index] + rolls[index + 1];
      index += 2;
    }
  }
  return total;
}
"""
_JS_ROMAN_NUMERALS = """\
const SYMBOLS = [
  [1000, "M"],
  [900, "CM"],
  [500, "D"],
  [400, "CD"],
  [100, "C"],
  [90, "XC"],
  [50, "L"],
  [40, "XL"],
  [10, "X"],
  [9, "IX"],
  [5, "V"],
  [4, "IV"],
  [1, "I"],
];

export function toRoman(n) {
  let rest = n;
  let out = "";
  for (const [value, symbol] of SYMBOLS) {
    while (rest >= value) {
      out += symbol;
      rest -= value;
    }
  }
  return out;
}
"""
SOLUTIONS.update(
    {
        ("fizzbuzz", "javascript"): ("kata.js", _JS_FIZZBUZZ),
        ("string-calculator", "javascript"): ("kata.js", _JS_STRING_CALCULATOR),
        ("bowling", "javascript"): ("kata.js", _JS_BOWLING),
        ("roman-numerals", "javascript"): ("kata.js", _JS_ROMAN_NUMERALS),
    }
)


# TypeScript: JavaScript's, typed as `tsc --strict` asks.
_TS_FIZZBUZZ = _JS_FIZZBUZZ.replace("fizzBuzz(n)", "fizzBuzz(n: number): string")
_TS_STRING_CALCULATOR = _JS_STRING_CALCULATOR.replace(
    "add(numbers)", "add(numbers: string): number"
)
_TS_BOWLING = _JS_BOWLING.replace("score(rolls)", "score(rolls: number[]): number")
_TS_ROMAN_NUMERALS = _JS_ROMAN_NUMERALS.replace(
    "const SYMBOLS = [", "const SYMBOLS: [number, string][] = ["
).replace("toRoman(n)", "toRoman(n: number): string")
SOLUTIONS.update(
    {
        ("fizzbuzz", "typescript"): ("kata.ts", _TS_FIZZBUZZ),
        ("string-calculator", "typescript"): ("kata.ts", _TS_STRING_CALCULATOR),
        ("bowling", "typescript"): ("kata.ts", _TS_BOWLING),
        ("roman-numerals", "typescript"): ("kata.ts", _TS_ROMAN_NUMERALS),
    }
)


# C++, header-only, as clang-format (Google style) prints it.
_CPP_FIZZBUZZ = """\
#pragma once

#include <string>

inline std::string fizzbuzz(int n) {
  std::string word;
  if (n % 3 == 0) word += "Fizz";
  if (n % 5 == 0) word += "Buzz";
  return word.empty() ? std::to_string(n) : word;
}
"""
_CPP_STRING_CALCULATOR = """\
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

inline int add(const std::string& numbers) {
  std::string body = numbers;
  std::vector<std::string> delimiters = {",", "\\n"};
  if (body.rfind("//", 0) == 0) {
    const auto end = body.find('\\n');
    delimiters.push_back(body.substr(2, end - 2));
    body = body.substr(end + 1);
  }
  for (const auto& delimiter : delimiters) {
    for (auto at = body.find(delimiter); at != std::string::npos;
         at = body.find(delimiter, at + 1)) {
      body.replace(at, delimiter.size(), ",");
    }
  }
  int total = 0;
  std::string negatives;
  std::size_t start = 0;
  while (start <= body.size()) {
    auto end = body.find(',', start);
    if (end == std::string::npos) end = body.size();
    const std::string part = body.substr(start, end - start);
    if (!part.empty()) {
      const int value = std::stoi(part);
      if (value < 0) {
        negatives += (negatives.empty() ? "" : ", ") + part;
      } else if (value <= 1000) {
        total += value;
      }
    }
    start = end + 1;
  }
  if (!negatives.empty()) {
    throw std::invalid_argument("negatives not allowed: " + negatives);
  }
  return total;
}
"""
_CPP_BOWLING = """\
#pragma once

#include <cstddef>
#include <vector>

inline int score(const std::vector<int>& rolls) {
  int total = 0;
  std::size_t index = 0;
  for (int frame = 0; frame < 10; ++frame) {
    if (rolls[index] == 10) {
      total += 10 + rolls[index + 1] + rolls[index + 2];
      index += 1;
    } else if (rolls[index] + rolls[index + 1] == 10) {
      total += 10 + rolls[index + 2];
      index += 2;
    } else {
      total += rolls[index] + rolls[index + 1];
      index += 2;
    }
  }
  return total;
}
"""
_CPP_ROMAN_NUMERALS = """\
#pragma once

#include <string>
#include <utility>
#include <vector>

inline std::string to_roman(int n) {
  static const std::vector<std::pair<int, const char*>> kSymbols = {
      {1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"},
      {90, "XC"},  {50, "L"},   {40, "XL"}, {10, "X"},   {9, "IX"},
      {5, "V"},    {4, "IV"},   {1, "I"}};
  std::string out;
  for (const auto& [value, symbol] : kSymbols) {
    while (n >= value) {
      out += symbol;
      n -= value;
    }
  }
  return out;
}
"""
SOLUTIONS.update(
    {
        ("fizzbuzz", "cpp"): ("kata.hpp", _CPP_FIZZBUZZ),
        ("string-calculator", "cpp"): ("kata.hpp", _CPP_STRING_CALCULATOR),
        ("bowling", "cpp"): ("kata.hpp", _CPP_BOWLING),
        ("roman-numerals", "cpp"): ("kata.hpp", _CPP_ROMAN_NUMERALS),
    }
)


# Java, the class Kata.
_JAVA_FIZZBUZZ = """\
/** FizzBuzz. */
public final class Kata {
  private Kata() {}

  public static String fizzbuzz(int n) {
    String word = (n % 3 == 0 ? "Fizz" : "") + (n % 5 == 0 ? "Buzz" : "");
    return word.isEmpty() ? Integer.toString(n) : word;
  }
}
"""
_JAVA_STRING_CALCULATOR = """\
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** The string calculator. */
public final class Kata {
  private Kata() {}

  public static int add(String numbers) {
    String body = numbers;
    List<String> delimiters = new ArrayList<>(List.of(",", "\\n"));
    if (body.startsWith("//")) {
      int end = body.indexOf('\\n');
      delimiters.add(body.substring(2, end));
      body = body.substring(end + 1);
    }
    List<String> quoted = new ArrayList<>();
    for (String delimiter : delimiters) {
      quoted.add(Pattern.quote(delimiter));
    }
    int total = 0;
    List<String> negatives = new ArrayList<>();
    for (String part : body.split(String.join("|", quoted))) {
      if (part.isEmpty()) {
        continue;
      }
      int value = Integer.parseInt(part);
      if (value < 0) {
        negatives.add(part);
      } else if (value <= 1000) {
        total += value;
      }
    }
    if (!negatives.isEmpty()) {
      throw new IllegalArgumentException(
          "negatives not allowed: " + String.join(", ", negatives));
    }
    return total;
  }
}
"""
_JAVA_BOWLING = """\
/** Bowling. */
public final class Kata {
  private Kata() {}

  public static int score(int[] rolls) {
    int total = 0;
    int index = 0;
    for (int frame = 0; frame < 10; frame++) {
      if (rolls[index] == 10) {
        total += 10 + rolls[index + 1] + rolls[index + 2];
        index += 1;
      } else if (rolls[index] + rolls[index + 1] == 10) {
        total += 10 + rolls[index + 2];
        index += 2;
      } else {
        total += rolls[index] + rolls[index + 1];
        index += 2;
      }
    }
    return total;
  }
}
"""
_JAVA_ROMAN_NUMERALS = """\
/** Roman numerals. */
public final class Kata {
  private static final int[] VALUES = {1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1};
  private static final String[] SYMBOLS = {
    "M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"
  };

  private Kata() {}

  public static String toRoman(int n) {
    StringBuilder out = new StringBuilder();
    int rest = n;
    for (int i = 0; i < VALUES.length; i++) {
      while (rest >= VALUES[i]) {
        out.append(SYMBOLS[i]);
        rest -= VALUES[i];
      }
    }
    return out.toString();
  }
}
"""
SOLUTIONS.update(
    {
        ("fizzbuzz", "java"): ("src/Kata.java", _JAVA_FIZZBUZZ),
        ("string-calculator", "java"): ("src/Kata.java", _JAVA_STRING_CALCULATOR),
        ("bowling", "java"): ("src/Kata.java", _JAVA_BOWLING),
        ("roman-numerals", "java"): ("src/Kata.java", _JAVA_ROMAN_NUMERALS),
    }
)
