// Clustrix demo: the Mandelbrot set, one annotated loop over image rows.
//
// The same loop runs twice in this program: once as a plain serial loop, once annotated with
// [[cluster::gpu_parallel]]. Built with Clustrix, the annotated copy runs split across every
// device (GPUs, else CPU worker threads); built with any other compiler it is the same serial
// loop. Either way the two results must be equal, and the program says whether they are.
//
//   clustrix++ -O2 main.cpp -o demo && ./demo            (optional: ./demo WIDTH HEIGHT)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Escape time of the point (cx, cy): how many steps z = z^2 + c takes to leave |z| <= 2.
static int escapeTime(double cx, double cy, int maxIter) {
  double x = 0.0, y = 0.0;
  int k = 0;
  while (k < maxIter && x * x + y * y <= 4.0) {
    double t = x * x - y * y + cx;
    y = 2.0 * x * y + cy;
    x = t;
    ++k;
  }
  return k;
}

static double millisecondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char **argv) {
  // Show what ran where (one line per loop on stderr) unless the user chose a log level.
  setenv("CLUSTRIX_LOG", "info", /*overwrite=*/0);

  const int width = argc > 1 ? std::atoi(argv[1]) : 1200;
  const int height = argc > 2 ? std::atoi(argv[2]) : 800;
  const int maxIter = 500;
  std::vector<int> serial(width * height), image(width * height);
  std::printf("Mandelbrot set, %d x %d pixels, up to %d iterations per pixel\n", width, height,
              maxIter);

  // 1. The plain serial loop, for reference.
  auto t0 = std::chrono::steady_clock::now();
  for (int row = 0; row < height; ++row)
    for (int col = 0; col < width; ++col)
      serial[row * width + col] = escapeTime(-2.2 + 3.2 * col / width,
                                             -1.2 + 2.4 * row / height, maxIter);
  double serialMs = millisecondsSince(t0);

  // 2. The same work, annotated: one iteration per pixel. Clustrix proves that iterations
  //    write disjoint elements of `out`, outlines the body, and hands the pixels to the devices
  //    in chunks.
  int *out = image.data();
  long total = 0; // an integer sum: Clustrix combines it across devices by itself
  const int pixels = width * height;
  t0 = std::chrono::steady_clock::now();
  [[cluster::gpu_parallel]]
  for (int p = 0; p < pixels; ++p) {
    const int row = p / width, col = p % width;
    int k = escapeTime(-2.2 + 3.2 * col / width, -1.2 + 2.4 * row / height, maxIter);
    out[p] = k;
    total += k;
  }
  double clustrixMs = millisecondsSince(t0);

  // A small picture of the result, from every 40th column and 40th row.
  const char *shades = " .:-=+*#%@";
  for (int row = height / 40; row < height; row += height / 20) {
    for (int col = width / 80; col < width; col += width / 60)
      std::putchar(shades[image[row * width + col] * 9 / maxIter]);
    std::putchar('\n');
  }

  long serialTotal = 0;
  for (int v : serial)
    serialTotal += v;
  std::printf("serial loop:    %8.1f ms\n", serialMs);
  std::printf("annotated loop: %8.1f ms  (%.2fx)\n", clustrixMs, serialMs / clustrixMs);
  std::printf("iterations in total: %ld\n", total);
  std::printf("result equals the serial result: %s\n",
              image == serial && total == serialTotal ? "yes" : "NO");
  return image == serial && total == serialTotal ? 0 : 1;
}
