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
}
