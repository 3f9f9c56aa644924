// swift-tools-version:6.0
// The Swift binding of libaikido: the module `Aikido` over the C module
// `CAikido` (the committed include/aikido.h, linked with -laikido). Where the
// library is found: see README.md (build tree, installed, static).
import PackageDescription

let package = Package(
    name: "Aikido",
    products: [
        .library(name: "Aikido", targets: ["Aikido"])
    ],
    targets: [
        // pkg-config's aikido.pc, when installed, gives the -L and rpath.
        .systemLibrary(name: "CAikido", path: "Sources/CAikido", pkgConfig: "aikido"),
        .target(name: "Aikido", dependencies: ["CAikido"]),
        // The README's quick start, built and run by test.sh.
        .executableTarget(name: "QuickStart", dependencies: ["Aikido"]),
        .testTarget(name: "AikidoTests", dependencies: ["Aikido", "CAikido"]),
    ],
    swiftLanguageModes: [.v6]
)
