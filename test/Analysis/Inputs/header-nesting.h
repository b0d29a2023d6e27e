// A header whose annotated loop spans most of its bytes (Analysis/header-nesting.cpp): the
// main file's loop lies at offsets inside that span, in another file.
static inline void longLoop(int n, double *a, const double *b) {
  [[cluster::gpu_parallel]]
  for (int i = 0; i < n; ++i) {
    a[i] = a[i] + b[i] * 1.0; // a long body, statement 1 of 40
    a[i] = a[i] + b[i] * 2.0; // a long body, statement 2 of 40
    a[i] = a[i] + b[i] * 3.0; // a long body, statement 3 of 40
    a[i] = a[i] + b[i] * 4.0; // a long body, statement 4 of 40
    a[i] = a[i] + b[i] * 5.0; // a long body, statement 5 of 40
    a[i] = a[i] + b[i] * 6.0; // a long body, statement 6 of 40
    a[i] = a[i] + b[i] * 7.0; // a long body, statement 7 of 40
    a[i] = a[i] + b[i] * 8.0; // a long body, statement 8 of 40
    a[i] = a[i] + b[i] * 9.0; // a long body, statement 9 of 40
    a[i] = a[i] + b[i] * 10.0; // a long body, statement 10 of 40
    a[i] = a[i] + b[i] * 11.0; // a long body, statement 11 of 40
    a[i] = a[i] + b[i] * 12.0; // a long body, statement 12 of 40
    a[i] = a[i] + b[i] * 13.0; // a long body, statement 13 of 40
    a[i] = a[i] + b[i] * 14.0; // a long body, statement 14 of 40
    a[i] = a[i] + b[i] * 15.0; // a long body, statement 15 of 40
    a[i] = a[i] + b[i] * 16.0; // a long body, statement 16 of 40
    a[i] = a[i] + b[i] * 17.0; // a long body, statement 17 of 40
    a[i] = a[i] + b[i] * 18.0; // a long body, statement 18 of 40
    a[i] = a[i] + b[i] * 19.0; // a long body, statement 19 of 40
    a[i] = a[i] + b[i] * 20.0; // a long body, statement 20 of 40
    a[i] = a[i] + b[i] * 21.0; // a long body, statement 21 of 40
    a[i] = a[i] + b[i] * 22.0; // a long body, statement 22 of 40
    a[i] = a[i] + b[i] * 23.0; // a long body, statement 23 of 40
    a[i] = a[i] + b[i] * 24.0; // a long body, statement 24 of 40
    a[i] = a[i] + b[i] * 25.0; // a long body, statement 25 of 40
    a[i] = a[i] + b[i] * 26.0; // a long body, statement 26 of 40
    a[i] = a[i] + b[i] * 27.0; // a long body, statement 27 of 40
    a[i] = a[i] + b[i] * 28.0; // a long body, statement 28 of 40
    a[i] = a[i] + b[i] * 29.0; // a long body, statement 29 of 40
    a[i] = a[i] + b[i] * 30.0; // a long body, statement 30 of 40
    a[i] = a[i] + b[i] * 31.0; // a long body, statement 31 of 40
    a[i] = a[i] + b[i] * 32.0; // a long body, statement 32 of 40
    a[i] = a[i] + b[i] * 33.0; // a long body, statement 33 of 40
    a[i] = a[i] + b[i] * 34.0; // a long body, statement 34 of 40
    a[i] = a[i] + b[i] * 35.0; // a long body, statement 35 of 40
    a[i] = a[i] + b[i] * 36.0; // a long body, statement 36 of 40
    a[i] = a[i] + b[i] * 37.0; // a long body, statement 37 of 40
    a[i] = a[i] + b[i] * 38.0; // a long body, statement 38 of 40
    a[i] = a[i] + b[i] * 39.0; // a long body, statement 39 of 40
    a[i] = a[i] + b[i] * 40.0; // a long body, statement 40 of 40
  }
}
