use kata::fizzbuzz;

#[test]
fn plain_numbers() {
    assert_eq!(fizzbuzz(1), "1");
    assert_eq!(fizzbuzz(2), "2");
    assert_eq!(fizzbuzz(98), "98");
}

#[test]
fn multiples_of_three() {
    assert_eq!(fizzbuzz(3), "Fizz");
    assert_eq!(fizzbuzz(6), "Fizz");
    assert_eq!(fizzbuzz(99), "Fizz");
}

#[test]
fn multiples_of_five() {
    assert_eq!(fizzbuzz(5), "Buzz");
    assert_eq!(fizzbuzz(10), "Buzz");
    assert_eq!(fizzbuzz(100), "Buzz");
}

#[test]
fn multiples_of_fifteen() {
    assert_eq!(fizzbuzz(15), "FizzBuzz");
    assert_eq!(fizzbuzz(30), "FizzBuzz");
}
