use kata::add;

#[test]
fn empty_is_zero() {
    assert_eq!(add(""), Ok(0));
}

#[test]
fn one_and_two_numbers() {
    assert_eq!(add("1"), Ok(1));
    assert_eq!(add("1,2"), Ok(3));
}

#[test]
fn many_numbers() {
    assert_eq!(add("1,2,3,4,5"), Ok(15));
}

#[test]
fn newlines_separate() {
    assert_eq!(add("1\n2,3"), Ok(6));
}

#[test]
fn custom_delimiter() {
    assert_eq!(add("//;\n1;2"), Ok(3));
}

#[test]
fn big_numbers_are_ignored() {
    assert_eq!(add("2,1001"), Ok(2));
    assert_eq!(add("1000,1"), Ok(1001));
}

#[test]
fn negatives_are_refused_and_listed() {
    let error = add("-1,2,-3").unwrap_err();
    assert!(error.contains("negatives not allowed: -1, -3"), "{}", error);
}
