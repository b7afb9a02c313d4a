use kata::to_roman;

#[test]
fn additive() {
    assert_eq!(to_roman(1), "I");
    assert_eq!(to_roman(3), "III");
    assert_eq!(to_roman(8), "VIII");
}

#[test]
fn subtractive() {
    assert_eq!(to_roman(4), "IV");
    assert_eq!(to_roman(9), "IX");
    assert_eq!(to_roman(40), "XL");
    assert_eq!(to_roman(90), "XC");
    assert_eq!(to_roman(400), "CD");
    assert_eq!(to_roman(900), "CM");
}

#[test]
fn larger_numbers() {
    assert_eq!(to_roman(14), "XIV");
    assert_eq!(to_roman(1994), "MCMXCIV");
    assert_eq!(to_roman(3999), "MMMCMXCIX");
}
