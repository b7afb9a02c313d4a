use kata::fizzbuzz;

#[test]
fn n1() {
    assert_eq!(fizzbuzz(1), "1");
}

#[test]
fn n2() {
    assert_eq!(fizzbuzz(2), "2");
}

#[test]
fn n3() {
    assert_eq!(fizzbuzz(3), "Fizz");
}

#[test]
fn n4() {
    assert_eq!(fizzbuzz(4), "4");
}

#[test]
fn n5() {
    assert_eq!(fizzbuzz(5), "Buzz");
}

#[test]
fn n6() {
    assert_eq!(fizzbuzz(6), "Fizz");
}
