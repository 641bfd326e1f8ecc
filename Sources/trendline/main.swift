import Foundation

FileHandle.standardError.write("usage: trendline <parse|run|validate|merge|generate> ...\n".data(using: .utf8)!)
exit(2)
